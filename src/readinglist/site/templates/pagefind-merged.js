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

// One ranking over the shards (issue 27). A shard in which a query word is in no page answers with
// the longest indexed word the query word starts with ("qu", from "SQuAD", for "quokkaphant"),
// scored by that shard's own statistics, so merged, its guesses came before the one page that has
// the word. Each word is looked up again as an exact word (Pagefind's quoted search: the same index
// chunks, nothing more to fetch), and a result ranks by how many of the query's words it has
// exactly, then by Pagefind's score. The others are checked, best first, by the words they matched
// (their fragments, which the results page loads anyway): a guess that shares too little of a query
// word ("c", from an initial, for "cosmology") is dropped, a longer word or a misspelling's stem kept.
const CHECKED = 10;  // results checked at a time, best first, while a batch mixes plausible results and guesses
const BATCHES = 5;  // then the rest are kept unchecked

function wordsOf(term) {
  return String(term ?? "").split(/\s+/).map(plain).filter((w) => w);
}

function plain(word) {
  return word.toLocaleLowerCase().normalize("NFD").replace(/[^\p{L}\p{N}]/gu, "");
}

// A matched word is near a query word if it holds it, or if they share a start of at least four
// characters and three fifths of the query word: "schedulers" for "schedulling", not "c" for "cosmology".
function near(query, word) {
  let shared = 0;
  while (shared < Math.min(query.length, word.length) && query[shared] === word[shared]) shared++;
  return word.includes(query) || shared >= Math.min(query.length, Math.max(4, Math.ceil(0.6 * query.length)));
}

async function plausible(result, words) {
  const data = await result.data();
  const matched = data.locations.map((at) => plain(data.content.split(/[\r\n\s]+/g)[at] ?? ""));
  return words.every((query) => matched.some((word) => near(query, word)));
}

// The results past the exact ones, less the guesses: checked a batch at a time; a batch of guesses
// only ends the list, a batch of plausible results ends the checking.
async function withoutGuesses(rest, words) {
  const kept = [];
  for (let at = 0; at < rest.length; at += CHECKED) {
    if (at >= CHECKED * BATCHES) return [...kept, ...rest.slice(at)];
    const batch = rest.slice(at, at + CHECKED);
    const checked = await Promise.all(batch.map((r) => plausible(r, words)));
    kept.push(...batch.filter((r, n) => checked[n]));
    if (checked.every((ok) => !ok)) return kept;
    if (checked.every((ok) => ok)) return [...kept, ...rest.slice(at + CHECKED)];
  }
  return kept;
}

// Pagefind scores every result of a quoted phrase 1: they are ordered by the score of the same
// words unquoted (the same index chunks), so a title holding the phrase comes first.
async function phraseOrder(response, term, opts) {
  const plain = await pagefind.search(term.replace(/"/g, " "), opts);
  const score = new Map((plain?.results ?? []).map((r) => [r.id, r.score]));
  response.results.sort((a, b) => (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0));
  return response;
}

async function exactFirst(response, term, opts) {
  if (response && /^\s*".+"\s*$/.test(term ?? "")) return phraseOrder(response, term, opts);
  const words = wordsOf(term);
  if (!response || !words.length) return response;
  const exact = await Promise.all(words.map((word) => pagefind.search(`"${word}"`, opts)));
  const hits = new Map();
  for (const found of exact) for (const r of found?.results ?? []) hits.set(r.id, (hits.get(r.id) ?? 0) + 1);
  const matched = (r) => hits.get(r.id) ?? 0;
  const results = response.results.sort((a, b) => matched(b) - matched(a) || b.score - a.score);  // stable
  const whole = results.filter((r) => matched(r) === words.length);
  const kept = await withoutGuesses(results.slice(whole.length), words);
  if (whole.length + kept.length < results.length && !kept.length) {
    // The facets counted the guesses too. No result left: they count nothing; the exact results of
    // a single word: as its exact search counted them (several words: as they were, a little high).
    if (!whole.length) response.filters = uncounted(response.filters);
    else if (words.length === 1) response.filters = exact[0].filters;
  }
  response.results = await literalFirst([...whole, ...kept], words);
  return response;
}

// Pagefind indexes stems, so "constructively" finds "constructive" and "construction" as exact
// words, and "topping" finds "top", ranked by how often and where the stem is: on a real list of
// 2,462 works the paper titled with the word as typed came 2nd to 9th. The first LITERAL results
// are ordered again (stable): every query word as typed in the title, then anywhere, then the rest.
// Their fragments are the ones the results page loads first, and five more.
const LITERAL = 10;

function tokens(text) {
  const words = String(text ?? "").normalize("NFD").split(/[^\p{L}\p{N}\p{M}]+/u);
  return new Set([...words.map(plain), ...String(text ?? "").split(/\s+/).map(plain)]);
}

async function literalFirst(results, words) {
  const head = results.slice(0, LITERAL);
  const rank = await Promise.all(
    head.map(async (result) => {
      const data = await result.data();
      const has = (text) => ((seen) => words.every((word) => seen.has(word)))(tokens(text));
      return has(data.meta?.title) ? 0 : has(data.content) ? 1 : 2;
    }),
  );
  const order = head.map((result, at) => ({result, at, rank: rank[at]}));
  order.sort((a, b) => a.rank - b.rank || a.at - b.at);
  return [...order.map((o) => o.result), ...results.slice(LITERAL)];
}

function uncounted(filters) {
  return Object.fromEntries(
    Object.entries(filters ?? {}).map(([name, values]) => [name, Object.fromEntries(Object.keys(values).map((v) => [v, 0]))]),
  );
}

// A sorted view is put in the site's order from sort.json (each page's rank by each sort key),
// which no shard knows. Pagefind itself would leave out the pages without the key (the topic
// pages), so a query found fewer pages sorted than by relevance: it searches unsorted, and the
// pages without the key come last, in their order by relevance. The same query, the same set.
async function inSiteOrder(response, sort) {
  const [key, direction] = Object.entries(sort ?? {})[0] ?? [];
  ranks ??= fetch(new URL("sort.json", HERE)).then((r) => r.json()).then(byId);
  const rank = (await ranks)[key] ?? new Map();
  const sign = direction === "desc" ? -1 : 1;
  const place = (r) => (rank.has(r.id) ? sign * rank.get(r.id) : Infinity);
  response.results.sort((a, b) => (place(a) === place(b) ? 0 : place(a) < place(b) ? -1 : 1));
  return response;
}

function byId(table) {
  const out = {};
  for (const [key, order] of Object.entries(table.ranks)) out[key] = new Map(order.map((i, rank) => [table.ids[i], rank]));
  return out;
}

// A facet of thousands of values (the authors of a large list) made Pagefind's UI draw thousands of
// checkboxes at every search, the slowest part of a search on a phone: each facet is given its
// FACET_ROWS most frequent values, those the reader checked, and those matching the text typed in
// its box (findFacet; search.html draws the box where hiddenValues says some are left out).
const FACET_ROWS = 50;
const finding = {};
const leftOut = {};

export function findFacet(name, text) {
  finding[name] = String(text ?? "").trim().toLocaleLowerCase();
}

export function hiddenValues(name) {
  return leftOut[name] ?? 0;
}

function trimFacets(filters, chosen = {}) {
  for (const [name, values] of Object.entries(filters ?? {})) {
    const wanted = finding[name] ?? "";
    const present = Object.entries(values).filter(([, count]) => count > 0);
    leftOut[name] = 0;
    if (present.length <= FACET_ROWS && !wanted) continue;
    const matching = present.filter(([value]) => value.toLocaleLowerCase().includes(wanted));
    const top = new Set(matching.sort((a, b) => b[1] - a[1]).slice(0, FACET_ROWS).map(([value]) => value));
    const keep = new Set(chosen[name] ?? []);
    filters[name] = Object.fromEntries(Object.entries(values).filter(([value]) => top.has(value) || keep.has(value)));
    leftOut[name] = present.length - top.size;
  }
  return filters;
}

async function ordered(response, term, opts, sort) {
  if (!response) return response;  // a debounced search that a later one replaced
  if (Object.keys(sort ?? {}).length) response = await inSiteOrder(response, sort);
  else response = await exactFirst(response, term, opts);
  trimFacets(response.filters, opts.filters);
  return response;
}

// Browsing by facet, with no search term (a reader looking for an author's or a tag's papers):
// search.html searches for a blank term, which Pagefind's UI runs (an empty one, it would not).
// With a value checked, the pages that have the checked values, newest first unless a sort is
// chosen; with none, no page, but every facet's values, so a facet's box finds among them all.
function blank(term) {
  return term !== null && term !== undefined && !String(term).trim();
}

async function browse(opts, sort) {
  const chosen = Object.values(opts.filters ?? {}).some((values) => [values].flat().length);
  const response = chosen
    ? await inSiteOrder(await pagefind.search(null, opts), Object.keys(sort ?? {}).length ? sort : {year: "desc"})
    : {results: [], unfilteredResultCount: 0, filters: await pagefind.filters(), totalFilters: {}, timings: []};
  trimFacets(response.filters, opts.filters);
  return response;
}

export async function filters() {
  return trimFacets(await pagefind.filters());
}

export async function search(term, opts = {}) {
  const {sort, ...rest} = opts;
  if (blank(term)) return browse(rest, sort);
  return ordered(await pagefind.search(term, rest), term, rest, sort);
}

export async function debouncedSearch(term, opts = {}, timeout) {
  const {sort, ...rest} = opts;
  if (blank(term)) return browse(rest, sort);
  return ordered(await pagefind.debouncedSearch(term, rest, timeout), term, rest, sort);
}

export const {init, destroy, mergeIndex, preload, createInstance} = pagefind;
