// The sidebar's drawer on a phone: Streamlit leaves it open over the new page after a tap on
// a page link, so the student sees the menu again instead of the page. Close it after a
// page link is followed, where the drawer covers the page (a narrow window).

// Streamlit lays the sidebar over the page below this width (its "md" breakpoint).
export const OVERLAY_BELOW_PX = 768;

const NAV_LINK = "[data-testid=stSidebarNavLink]";
const COLLAPSE = "[data-testid=stSidebarCollapseButton] button";
const SIDEBAR = "[data-testid=stSidebar]";

/** Whether a press on `target` follows a page link, in a window where the drawer covers the
 * page. */
export function closesDrawer(target, width) {
  return width < OVERLAY_BELOW_PX && !!(target && target.closest && target.closest(NAV_LINK));
}

function close(doc) {
  const sidebar = doc.querySelector(SIDEBAR);
  const button = doc.querySelector(COLLAPSE);
  if (sidebar && button && sidebar.getBoundingClientRect().right > 0) button.click();
}

export default function install(component) {
  const doc = component.parentElement ? component.parentElement.ownerDocument : document;
  const win = doc.defaultView || window;
  if (win.__svmlabDrawer) return undefined;  // one listener per page, whatever reruns
  win.__svmlabDrawer = true;
  doc.addEventListener("click", (ev) => {
    if (!closesDrawer(ev.target, win.innerWidth)) return;
    // after Streamlit has followed the link (its own handler runs on this click)
    win.setTimeout(() => close(doc), 50);
  }, true);
  return undefined;
}
