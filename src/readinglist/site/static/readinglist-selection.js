"use strict";
// The selection: a checkbox on every paper card and paper page ticks papers across pages (kept in
// localStorage, so it survives navigation and reloads); a small panel downloads their BibTeX as
// one .bib file, made in the browser. Each entry is the BibTeX block of the paper's own page:
// taken from the page when ticked there, else read from the page when downloading.
(() => {
  const KEY = "readinglist-selection";
  const ROOT = document.documentElement.dataset.content_root ?? "";
  const BIBTEX = ".readinglist-cite .sd-tab-content pre"; // the Cite menu's first tab: BibTeX

  const load = () => {
    try {
      const value = JSON.parse(localStorage.getItem(KEY) ?? "{}");
      return value && typeof value === "object" && !Array.isArray(value) ? value : {};
    } catch {
      return {}; // storage off (private mode) or a corrupt value: an empty selection
    }
  };
  const save = (selection) => {
    try {
      localStorage.setItem(KEY, JSON.stringify(selection));
    } catch {
      /* storage off: the selection lasts as long as the page */
    }
    refresh();
  };
  const slugOf = (href) => {
    const found = /\/papers\/([^/]+)\.html$/.exec(new URL(href, location.href).pathname);
    return found ? decodeURIComponent(found[1]) : null;
  };
  const pageOf = (slug) => new URL(`${ROOT}papers/${encodeURIComponent(slug)}.html`, location.href).href;
  const here = (slug) => slugOf(location.href) === slug;

  function checkbox(slug, title) {
    const label = document.createElement("label");
    label.className = "readinglist-select";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.dataset.slug = slug;
    input.setAttribute("aria-label", `Select for BibTeX download: ${title}`);
    input.addEventListener("change", () => {
      const selection = load();
      if (input.checked) {
        const block = here(slug) ? document.querySelector(BIBTEX) : null;
        selection[slug] = { title, bibtex: block ? block.textContent.trim() : "" };
      } else {
        delete selection[slug];
      }
      save(selection);
    });
    label.append(input, document.createTextNode(" Select"));
    return label;
  }

  function addBoxes() {
    const heading = document.querySelector("[data-readinglist-paper] h1");
    const slug = slugOf(location.href);
    if (heading && slug) heading.after(checkbox(slug, heading.textContent.replace(/#$/, "").trim()));
    for (const card of document.querySelectorAll(".sd-card")) {
      const link = [...card.querySelectorAll("a[href]")].find((a) => slugOf(a.href));
      const body = card.querySelector(".sd-card-body");
      if (link && body) body.append(checkbox(slugOf(link.href), link.textContent.trim()));
    }
  }

  const panel = document.createElement("section");
  panel.className = "readinglist-selection";
  panel.setAttribute("aria-label", "Selection");
  const count = document.createElement("p");
  count.setAttribute("role", "status");
  const download = document.createElement("button");
  download.type = "button";
  download.textContent = "Download BibTeX";
  const clear = document.createElement("button");
  clear.type = "button";
  clear.textContent = "Clear selection";
  panel.append(count, download, clear);

  function refresh() {
    const selection = load();
    const n = Object.keys(selection).length;
    count.textContent = `${n} ${n === 1 ? "paper" : "papers"} selected`;
    panel.hidden = n === 0;
    for (const input of document.querySelectorAll(".readinglist-select input")) {
      input.checked = input.dataset.slug in selection;
    }
  }

  async function bibtexOf(slug, entry) {
    if (entry.bibtex) return entry.bibtex;
    try {
      const response = await fetch(pageOf(slug));
      if (!response.ok) return "";
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      return page.querySelector(BIBTEX)?.textContent.trim() ?? "";
    } catch {
      return "";
    }
  }

  download.addEventListener("click", async () => {
    const entries = await Promise.all(Object.entries(load()).map(([slug, entry]) => bibtexOf(slug, entry)));
    const blob = new Blob([`${entries.filter(Boolean).join("\n\n")}\n`], { type: "application/x-bibtex" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "selection.bib";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });
  clear.addEventListener("click", () => save({}));
  window.addEventListener("storage", (event) => event.key === KEY && refresh()); // another tab changed it

  const start = () => {
    addBoxes();
    document.body.append(panel);
    refresh();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
