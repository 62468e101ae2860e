"""Titles and abstracts from sentence templates over a topic's vocabulary.

Abstracts follow the usual arc (background, contribution, details, results) so the
summarizer, the working-title inference and the key-result extraction all have work to do.
"""

from __future__ import annotations

import random
import re

from vocabulary import ADJECTIVES, BASELINES, MODIFIERS, PROBLEM_NOUNS, TECHNIQUE_NOUNS, TOPICS

BACKGROUND = (
    "{Task_s} is [a central|an important|a long-standing|a pressing] [problem|challenge|concern] [for|in] {object}.",
    "{Task_s} has [attracted growing attention|become increasingly important|drawn much interest] as {object} "
    "[become larger and more diverse|grow in scale|spread to new domains].",
    "[Existing|Current|Prior|State-of-the-art] [approaches to|methods for|systems for] {task} "
    "[suffer from|are limited by|struggle with] {problem}"
    "[, which limits their use on {object}|| on {object}| in practice].",
    "As {object} [grow in size|become more complex|scale up], {problem} "
    "[increasingly dominates|now accounts for most of|limits] the cost of {task}.",
    "[Recent|Most] [work|research] on {task} [relies|builds|depends] on [hand-tuned heuristics|fixed policies|manual "
    "configuration] that [do not transfer|fail to generalize|break down] across {object}.",
    "Despite [rapid|recent|steady] progress, {task} on {object} [remains difficult|is still hard|remains an open "
    "problem] [because of|due to] {problem}.",
)
NAMED = (
    "We [propose|present|introduce|design] {system}, {an_adj} {method} for {task} on {object}.",
    "In this [paper|work], we [present|propose|introduce] {system}, {an_adj} {method} that [addresses|tackles|"
    "mitigates] {problem} in {task}.",
    "We [introduce|present|develop] {system}, {an_adj} {method} [designed|built|tailored] for {object}.",
)
UNNAMED = (
    "In this [paper|work], we [study|examine|analyze] {task} for {object} and identify {problem} as "
    "[the main|a key|the dominant] [bottleneck|obstacle|source of inefficiency].",
    "We [characterize|measure|profile] {task} on {object} and [show|reveal|explain] where [current|existing] "
    "[methods|systems] lose [accuracy|time|efficiency].",
    "This [work|paper|study] [investigates|asks|examines] whether {technique} can [reduce|mitigate|remove] "
    "{problem} in {task}.",
    "We [propose|develop|design] {an_adj} {method} for {task} that "
    "[explicitly models|accounts for|exploits] {problem}.",
)
DETAIL = (
    "{It} [combines|couples|integrates|pairs] {technique} with {technique2} [to reduce|to mitigate|to cut|"
    "and thereby reduces] {problem}.",
    "The [key|central|main|core] [idea|insight|observation|principle] is [to use|to rely on|that we can exploit|"
    "to apply] {technique}, which [avoids|sidesteps|removes|bounds] {problem}[ without extra tuning| at little cost|"
    " in most cases|].",
    "{It} [decomposes|splits|partitions|breaks] the [problem|workload|computation|input] into [independent|small|"
    "parallel|overlapping] [stages|pieces|subproblems|tiles] [and applies {technique} to each|handled by "
    "{technique}|that {technique} processes separately].",
    "We [further|also|additionally|then] [show|prove|find|observe] that {technique2} is [complementary to|"
    "compatible with|orthogonal to|independent of] {technique}[ and comes at no extra cost| and adds little "
    "overhead|, so both can be enabled together|].",
    "{An_adj} [variant|form|version|extension] of {technique} [lets|allows|enables] {it} to [adapt|react|adjust|"
    "respond] to [{problem}|changing inputs|new hardware|bursty load|{object}][ online| dynamically| quickly|].",
    "[We give a|A|Our] [theoretical|formal|convergence|complexity] analysis [shows|establishes|proves|confirms] "
    "that [the approach|the method|the algorithm|{it}] [converges|behaves|scales] [at the same rate as|no worse "
    "than|like|as well as] {baseline}.",
    "Unlike [prior|previous|existing|conventional] {method}s, {it} [requires no changes to|leaves untouched|"
    "needs nothing from|is transparent to] the [model definition|user code|training script|application|"
    "{method}].",
    "The design [separates|decouples|isolates] [policy|strategy|planning|{technique}] from [mechanism|execution|"
    "the runtime|{technique2}], [so new strategies are easy to add|which keeps it simple|and both are tunable|"
    "for modularity].",
    "We [also|further|then|finally] [describe|explain|show|detail] how {it} [handles|copes with|recovers from|"
    "tolerates] {problem}[ when the input distribution shifts| under heavy load| when devices fail| in {object}|].",
    "[An|Our|A detailed|A systematic] ablation [study|analysis|experiment] [isolates|quantifies|measures|"
    "separates] the [contribution|effect|benefit|impact] of {technique2}[ on {dataset}|].",
    "[To this end|For this purpose|In addition|Moreover], {it} [maintains|keeps|builds|updates] {technique} "
    "[online|incrementally|at every step|per {method}].",
    "{It} [formulates|casts|models|frames] {task} as [an optimization|a search|a planning|a learning|"
    "a scheduling] problem [over|across|for] {object}.",
    "[Crucially|Importantly|Notably], {technique} [exposes|reveals|captures] {problem} [early|before it "
    "accumulates|at fine granularity|cheaply].",
    "{It} [replaces|supersedes|generalizes] {technique2} [with|by|using] {technique} "
    "[where possible|when profitable|under a cost bound|].",
)
RESULT = (
    "[Experiments|Results|Evaluations] on {dataset} [show|demonstrate|indicate] that {it} [achieves|delivers|reaches] "
    "up to {num}x {gain} over {baseline}.",
    "On {dataset}, {it} [reaches|attains|obtains] {pct}% {score} [with|while giving] {num}x {gain} [compared with|"
    "relative to|over] {baseline}.",
    "[Compared with|Relative to|Against] {baseline}, [it|our approach] improves {score} by {pct2}% on {dataset}.",
    "[Extensive|Our|A thorough] evaluation on {dataset} [demonstrates|shows|yields] {num}x {gain} [on average|"
    "in the median case|overall][ and {num2}x at best|, up to {num2}x|].",
)
CLOSING = (
    "[The system|It|Our implementation] has been [deployed|running|in use] in production for {months} months.",
    "[Code|Our code|The implementation] [and pretrained models|and data|] [are|is] [publicly|openly|freely] available.",
    "These results [suggest|indicate|show] that {technique} is a [practical|useful|promising] building block for "
    "{object}.",
    "We [discuss|outline|analyze] the limitations of [our|the] approach and [directions for|open questions for|] "
    "future work.",
)
NAMED_TITLES = (
    "{System}: {Adj} {Method} for {Task}",
    "{System}: {Adj} {Task} on {Object}",
    "{System}: Towards {Adj} {Task}",
    "{System}: Taming {Problem} in {Task}",
)
PLAIN_TITLES = (
    "{Adj} {Task} for {Object}",
    "Towards {Adj} {Task} on {Object}",
    "Characterizing {Task} on {Object}",
    "Rethinking {Problem} in {Task}",
    "On the Role of {Problem} in {Task} for {Object}",
    "Learning {Adj} {Method}s for {Task}",
    "{Task} with {Adj} {Method}s: A Study on {Object}",
)
ALTERNATIVES = re.compile(r"\[([^\[\]]*)\]")
UNNAMED_SUBJECTS = ("our method", "our approach", "the proposed method", "the framework", "our system", "the model")
SMALL_WORDS = frozenset("a an the of for on in to and with at by from".split())


def title_case(text: str) -> str:
    """Capitalize every word but the small ones inside (words already capitalized stay as they are)."""
    words = text.split(" ")
    keep = [(i and w in SMALL_WORDS) or w[:1].isupper() for i, w in enumerate(words)]
    return " ".join(w if k else w[:1].upper() + w[1:] for w, k in zip(words, keep, strict=True))


def slots(rng: random.Random, topic: str, system: str) -> dict[str, str]:
    """One random filling of every template slot; capitalized keys are title-cased."""
    vocab = TOPICS[topic]
    techniques = rng.sample(vocab["technique"], 2)
    values = {
        "task": rng.choice(vocab["task"]), "object": rng.choice(vocab["object"]),
        "method": rng.choice(vocab["method"]), "problem": rng.choice(vocab["problem"]),
        "technique": techniques[0], "technique2": techniques[1], "dataset": rng.choice(vocab["dataset"]),
        "gain": rng.choice(vocab["gain"]), "score": rng.choice(vocab["score"]), "adj": rng.choice(ADJECTIVES),
        "baseline": rng.choice(BASELINES), "num": f"{rng.uniform(1.1, 9.5):.1f}", "num2": f"{rng.uniform(2, 20):.2f}",
        "pct": f"{rng.uniform(60, 99.5):.1f}", "pct2": f"{rng.uniform(1, 45):.1f}", "months": str(rng.randint(2, 30)),
        "system": system, "it": system or rng.choice(UNNAMED_SUBJECTS),
    }  # fmt: skip
    values.update({k.capitalize(): title_case(v) for k, v in list(values.items())})
    values["an_adj"] = ("an " if values["adj"][0] in "aeio" else "a ") + values["adj"]
    values["An_adj"] = values["an_adj"].capitalize()
    values["Task_s"] = values["task"][0].upper() + values["task"][1:]
    values["It"] = values["it"][0].upper() + values["it"][1:]
    return values


def fill(rng: random.Random, template: str, values: dict[str, str]) -> str:
    """The template with each [a|b|c] replaced by one alternative, then its slots filled."""
    text = ALTERNATIVES.sub(lambda m: rng.choice(m.group(1).split("|")), template)
    return " ".join(text.format(**values).split()).replace(" ,", ",").replace(" .", ".")


def title(rng: random.Random, values: dict[str, str]) -> str:
    templates = NAMED_TITLES if values["system"] else PLAIN_TITLES
    return rng.choice(templates).format(**values)


def abstract(rng: random.Random, topic: str, values: dict[str, str]) -> str:
    """120-250 words: background, contribution, details until the length is reached, results."""
    target = rng.randint(120, 230)
    lead = [rng.choice(BACKGROUND) for _ in range(rng.randint(1, 2))]
    lead.append(rng.choice(NAMED if values["system"] else UNNAMED))
    ending = rng.sample(RESULT, rng.randint(1, 2)) + rng.sample(CLOSING, rng.randint(0, 1))
    tail = [fill(rng, t, values) for t in ending]
    sentences = [fill(rng, s, values) for s in lead]
    for detail in rng.sample(DETAIL, len(DETAIL)):
        if _words(sentences + tail) >= target:
            break
        values = {**values, **_reroll(rng, topic)}  # later sentences name other techniques and problems
        sentences.append(fill(rng, detail, values))
    return " ".join(sentences + tail)


def _reroll(rng: random.Random, topic: str) -> dict[str, str]:
    vocab = TOPICS[topic]
    first = second = _term(rng, vocab["technique"], TECHNIQUE_NOUNS)
    while second == first:
        second = _term(rng, vocab["technique"], TECHNIQUE_NOUNS)
    return {"technique": first, "technique2": second, "problem": _term(rng, vocab["problem"], PROBLEM_NOUNS)}


def _term(rng: random.Random, common: list[str], nouns: list[str]) -> str:
    """A topic phrase half the time, else a rarer compound ("cache-aware warp coalescing")."""
    if rng.random() < 0.5:
        return rng.choice(common)
    head = f"{rng.choice(MODIFIERS)} {rng.choice(nouns)}"
    return f"{rng.choice(MODIFIERS)}-aware {head}" if rng.random() < 0.3 else head


def _words(sentences: list[str]) -> int:
    return sum(len(s.split()) for s in sentences)
