// The Playground's picture in words, rebuilt after each fit from the same answer the numbers
// panel shows (ui/serving/fit_api.py answer: its panel rows, its support vectors, slack and
// mistakes). The words are ui/shared/describe.py's describe_model, which the page's other
// charts use: tests/js/describe_cases.json holds Python's texts for the same answers
// (tests/js/describe_cases.py writes it). No DOM.

const MAX_NAMES = 12; // describe.py MAX_NAMES
const POS_WORDS = "class +1 (circles)";
const NEG_WORDS = "class −1 (squares)";

export function pointNames(idx) {
  // "x1, x4, x13" (1-based, as the tables name the points); past MAX_NAMES "and 12 more"
  const names = idx.slice(0, MAX_NAMES).map((i) => `x${Number(i) + 1}`).join(", ");
  return idx.length > MAX_NAMES ? `${names} and ${idx.length - MAX_NAMES} more` : names;
}

export function supportIndices(ans) {
  // the points with α > 0, those the numbers panel counts ("3 (3 free, 0 bound)")
  return [...(ans.free || []), ...(ans.bound || [])].sort((a, b) => a - b);
}

function tableNote(table, where) {
  return table ? ` The numbers are in the table '${table}' ${where || "below"}.` : "";
}

function row(panel, label) {
  const r = panel.find((p) => p[0] === label);
  return r ? String(r[1]) : null;
}

function fitWords(margin, sv, slack, total, wrong) {
  const parts = [
    `Margin ${margin}`,
    sv.length ? `support vectors ${pointNames(sv)}` : "no support vectors",
    slack.length ? `slack on ${pointNames(slack)} (Σξ ${total})` : "no slack",
  ];
  if (wrong.length) parts.push(`misclassified ${pointNames(wrong)}`);
  return parts.join("; ") + ".";
}

export function describeAnswer({ points, ans, kernel, table, where }) {
  // points [[x1, x2, label]] the answer is for; ans the endpoint's answer (null: none yet);
  // kernel the kernel's words ("Gaussian (RBF)"); table the numbers table's heading
  const n = points.length;
  const npos = points.filter((p) => p[2] > 0).length;
  const head = `${n} points: ${npos} of ${POS_WORDS}`;
  const neg = `${n - npos} of ${NEG_WORDS}`;
  if (!ans) return `${head}, ${neg}.`;
  if (!ans.ok) return `${head}, ${neg}. No model: ${ans.message}`;
  if (!ans.panel) return `${head}, ${neg}.`; // the teacher hides the numbers
  const plane = row(ans.panel, "hyperplane");
  const text = plane
    ? `${head} on the side where ${plane.replace(/ = 0$/, "")} > 0, ${neg} on the other.`
    : `${head}, ${neg}; the boundary h(x) = 0 of the ${kernel} kernel is curved, ` +
      "class +1 where h(x) > 0.";
  const words = fitWords(row(ans.panel, "margin 1/‖w‖"), supportIndices(ans),
    ans.slack_idx || [], row(ans.panel, "total slack Σξ"), ans.misclassified || []); // prettier-ignore
  return `${text} ${words}${tableNote(table, where)}`;
}
