// 2-D canvas helpers shared by the Playground's refit layer (canvas_layer.js) and the step
// player (step_player_draw.js); prepended to each element's script like plotly_loader.js.

function sizeCanvas(cv, w, h) {
  const dpr = window.devicePixelRatio || 1;
  const W = Math.max(1, Math.round(w * dpr));
  const H = Math.max(1, Math.round(h * dpr));
  if (cv.width !== W || cv.height !== H) {
    cv.width = W;
    cv.height = H;
    cv.style.width = w + "px";
    cv.style.height = h + "px";
  }
  const ctx = cv.getContext("2d");
  // the context keeps its state between draws when the size is unchanged: start afresh
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
  ctx.globalAlpha = 1;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  return ctx;
}

function ring(ctx, x, y, size, color, width) {
  ctx.beginPath();
  ctx.arc(x, y, size / 2, 0, 2 * Math.PI);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}
