// Pagefind's API over every shard of the site's index (site/shards.py), written by site/searchmerge.py
// as pagefind-merged/pagefind.js. search.html points Pagefind's UI here (bundlePath), so the UI and
// the page's own code share this one module, and through it one Pagefind instance.
import * as pagefind from "../pagefind/pagefind.js";

const BUNDLES = "@BUNDLES@";  // the paper shards' bundle folders, relative to this file
const HERE = new URL(".", import.meta.url);
let merged = null;
let ranks = null;

// The shards are merged once, with the options of the first call (the search page passes the UI's:
// base URL and excerpt length), so every shard's results link and read the same.
export async function options(opts = {}) {
  await pagefind.options(opts);
  merged ??= (async () => {
    const {basePath, ...shared} = opts;
    for (const bundle of BUNDLES) await pagefind.mergeIndex(new URL(bundle, HERE).pathname, {...shared});
  })();
  await merged;
}

// Pagefind sorts each shard's results by their place in that shard, so merged they interleave
// (the newest of each shard, then the second newest…): a sorted view is put in the site's order
// from sort.json (each page's rank by each sort key), and lists only the pages that have the key.
async function inSiteOrder(response, sort) {
  const [key, direction] = Object.entries(sort ?? {})[0] ?? [];
  if (!response || !key) return response;
  ranks ??= fetch(new URL("sort.json", HERE)).then((r) => r.json()).then(byId);
  const rank = (await ranks)[key];
  if (!rank) return response;
  const sign = direction === "desc" ? -1 : 1;
  response.results = response.results.filter((r) => rank.has(r.id));
  response.results.sort((a, b) => sign * (rank.get(a.id) - rank.get(b.id)));
  return response;
}

function byId(table) {
  const out = {};
  for (const [key, order] of Object.entries(table.ranks)) out[key] = new Map(order.map((i, rank) => [table.ids[i], rank]));
  return out;
}

export async function search(term, opts = {}) {
  return inSiteOrder(await pagefind.search(term, opts), opts.sort);
}

export async function debouncedSearch(term, opts = {}, timeout) {
  return inSiteOrder(await pagefind.debouncedSearch(term, opts, timeout), opts.sort);
}

export const {init, destroy, mergeIndex, preload, filters, createInstance} = pagefind;
