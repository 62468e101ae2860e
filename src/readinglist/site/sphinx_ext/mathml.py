"""Math rendered to MathML at build time: offline, no JavaScript (``html_math_renderer = "mathml"``)."""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

from ...render.mathml import fallback, to_mathml


def visit_math(self: HTML5Translator, node: nodes.Element) -> None:
    latex = node.astext()
    self.body.append(to_mathml(latex) or fallback(latex))
    raise nodes.SkipNode


def visit_math_block(self: HTML5Translator, node: nodes.Element) -> None:
    latex = node.astext()
    self.body.append(f'<div class="math">{to_mathml(latex, display=True) or fallback(latex)}</div>')
    raise nodes.SkipNode


def setup(app: Sphinx) -> None:
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_math_block, None))
