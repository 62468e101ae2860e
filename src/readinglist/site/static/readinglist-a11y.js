// readinglist: Pagefind's search box has only a title; give it a label screen readers announce.
// Pagefind builds its UI after the page loads, so the box is labelled when it appears.
(() => {
  const label = () => {
    for (const box of document.querySelectorAll(".pagefind-ui__search-input:not([aria-label])")) {
      box.setAttribute("aria-label", box.getAttribute("placeholder") || "Search this site");
    }
  };
  const watch = () => {
    label();
    new MutationObserver(label).observe(document.body, { childList: true, subtree: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();

// furo's drawer icons, made buttons by the site (a11y.py): each toggles its drawer's checkbox,
// says whether the drawer is open, and Escape closes an open drawer.
(() => {
  const buttons = () => document.querySelectorAll("button[data-readinglist-toggle]");
  const sync = () => {
    for (const button of buttons()) {
      const box = document.getElementById(button.dataset.readinglistToggle);
      button.setAttribute("aria-expanded", String(Boolean(box?.checked)));
    }
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("button[data-readinglist-toggle]");
    const box = button && document.getElementById(button.dataset.readinglistToggle);
    if (box) box.checked = !box.checked;
    sync();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const box of document.querySelectorAll("input.sidebar-toggle:checked")) {
      box.checked = false;
      // Focus inside the drawer that just closed goes back to the visible button that opened it.
      const drawer = document.querySelector(box.id === "__toc" ? ".toc-drawer" : ".sidebar-drawer");
      const back = [...buttons()].find((b) => b.dataset.readinglistToggle === box.id && b.getClientRects().length > 0);
      if (drawer?.contains(document.activeElement) && back) back.focus();
    }
    sync();
  });
  document.addEventListener("change", sync);
})();

// The abstract starts open (readers without JavaScript see it whole); on a phone's screen it
// starts closed, so the problem, approach and result lines above it are what fits first.
(() => {
  const close = () => {
    if (!window.matchMedia("(max-width: 46em)").matches) return;
    for (const box of document.querySelectorAll("details.readinglist-abstract[open]")) box.removeAttribute("open");
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", close);
  else close();
})();
