// drawer.js: which presses close the sidebar's drawer (a page link, in a narrow window).
import assert from "node:assert/strict";
import { test } from "node:test";

import { closesDrawer, OVERLAY_BELOW_PX } from "../../ui/browser/drawer.js";

const link = { closest: (sel) => (sel.includes("stSidebarNavLink") ? {} : null) };
const other = { closest: () => null };

test("a page link on a phone closes the drawer; on a wide window or elsewhere it does not", () => {
  assert.equal(closesDrawer(link, 390), true);
  assert.equal(closesDrawer(link, OVERLAY_BELOW_PX - 1), true);
  assert.equal(closesDrawer(link, OVERLAY_BELOW_PX), false);
  assert.equal(closesDrawer(link, 1400), false);
  assert.equal(closesDrawer(other, 390), false);
  assert.equal(closesDrawer(null, 390), false);
});
