"""Systems compared by the evaluation, in one registry.

A system is any callable ``(mem, asked, k) -> list[ScoredMemory]``; ``asked`` carries the
question's text, namespace and date only (:class:`~ramem_integrations.evaluation.datasets.Asked`).
Adding one is one line::

    register("ramem-soft", Variant(strict=False))

Every system runs on the same store (the same memories) and the same questions.
"""

from __future__ import annotations

from ramem_integrations.core.passages import Passages
from ramem_integrations.core.retrieval.optional import OPTIONAL_STEPS
from ramem_integrations.core.retrieval.steps import DEFAULT_STEPS, Spread
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.ablations import (
    ContextShuffle,
    LexicalText,
    NoCalledAliases,
    NoNamesInText,
    NoSessionSpan,
    SearchNeed,
)
from ramem_integrations.evaluation.llama_systems import (
    llama_vector,
    llama_vector_ramem,
    llama_vector_restated,
)
from ramem_integrations.evaluation.passages import PassageSystem
from ramem_integrations.evaluation.variants import (
    Fused,
    Mode,
    NeedsExtra,
    Rewritten,
    System,
    Variant,
    installed,
)

__all__ = [
    "ALIASES",
    "FLAT_PROMPT_SYSTEMS",
    "OFF_NOW",
    "RENAMED",
    "SYSTEMS",
    "System",
    "register",
    "select",
]

#: The registered systems, by name, in registration order.
SYSTEMS: dict[str, System] = {}

#: Names earlier versions used for systems that are the same code as another one.
RENAMED = {
    "no-context-ranking": "content (it was the same retrieval)",
    "flat-prompt": "ramem-flat-prompt",
}

#: Names of step ablations that were options set to 0 before the steps were named: the same
#: system under both names, so earlier results keep their meaning.
ALIASES = {
    "no-episode-evidence": "without-episode-evidence",
    "no-speaker-preference": "without-speaker-preference",
    "no-replies": "without-replies",
}

#: The ablations of steps that are now off by default: RaMem itself, under the names earlier
#: results used.
OFF_NOW = ("without-replies", "without-spread")

#: Systems whose answers are asked with the flat prompt (coordinates left out).
FLAT_PROMPT_SYSTEMS = frozenset({"ramem-flat-prompt"})


def register(name: str, system: System) -> System:
    """Add (or replace) a system under ``name``; returns it, so it also works as a decorator."""
    if not name or "," in name:
        raise InvalidInputError(f"A system name must be non-empty and without commas: {name!r}.")
    SYSTEMS[name] = system
    return system


def _missing(system: System) -> bool:
    """Whether ``system`` needs an extra that is not installed."""
    return isinstance(system, NeedsExtra) and not installed(system.module)


def select(names: str | list[str] | None) -> dict[str, System]:
    """The systems named (comma-separated or a list), or all when ``names`` is empty. A named
    system whose extra is not installed raises
    :class:`~ramem_integrations.errors.MissingDependencyError` (all: such systems are left out)."""
    if not names:
        return {n: s for n, s in SYSTEMS.items() if not _missing(s)}
    wanted = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    unknown = [n for n in wanted if n and n not in SYSTEMS]
    if unknown:
        hints = "".join(f" {n} is now {RENAMED[n]}." for n in unknown if n in RENAMED)
        raise InvalidInputError(
            f"Unknown system(s): {', '.join(unknown)}.{hints} Known: {', '.join(SYSTEMS)}."
        )
    chosen = {n: SYSTEMS[n] for n in wanted if n}
    for system in chosen.values():
        if isinstance(system, NeedsExtra):
            system.check()  # a missing extra is named before anything is loaded
    return chosen


for _mode in ("bm25", "dense", "content"):
    register(_mode, Mode(_mode))
register("ramem", Variant())
register("ramem-soft", Variant(strict=False))
register("no-session-span", Variant(kind=NoSessionSpan))
#: Each ranking step taken away alone: the default list minus that step
#: (core/retrieval/steps.py; docs/rules.md).
for _step in DEFAULT_STEPS:
    register(f"without-{_step.name}", Variant(without=(_step.name,)))
for _name in OFF_NOW:
    register(_name, SYSTEMS["ramem"])
for _old, _new in ALIASES.items():
    register(_old, SYSTEMS[_new])
#: Searching with the information need (condition words removed) instead of the question.
register("ramem-need", Variant(kind=SearchNeed))
#: The turn-level method: hits without their episodes.
register("no-episodes", Variant(episodes=False))
#: A neighbour may follow its hit at once, and the episode lift may pass the best hit; each of
#: the two alone (docs/episodes.md, "Options and their defaults").
register("neighbours-anywhere", Variant(hits_first=1, keep_first=False))
register("no-hits-first", Variant(hits_first=1))
register("lift-passes-first", Variant(keep_first=False))
#: The steps off by default (core/retrieval/optional.py), each turned on (docs/rules.md).
for _name in OPTIONAL_STEPS:
    register(f"with-{_name}", Variant(adding=(_name,)))
#: The user's turns moved one by one and neighbours' user turns where they fell: both steps
#: as they were before the user's turns kept their own order.
register(
    "user-turns-by-turn",
    Variant(without=("user-neighbours-last",), adding=("user-first-by-turn",)),
)
register("with-user-first", Variant())  # the default: the name it was measured under
register("keep-first", Variant(keep_first=True))  # the default: a name for the ablation runs
#: A name condition met only by the names anchoring read, not by a memory's words (lower case).
register("no-names-in-text", Variant(kind=NoNamesInText))
#: Reciprocal rank fusion instead of the convex fusion of dense and BM25 (docs/evaluation.md,
#: "Fusion").
register("content-rrf", Fused("rrf"))
#: Content retrieval of the question's need, or of its words without the participants' names
#: (docs/embeddings.md, "Query-side changes").
register("content-need", Rewritten("need"))
register("content-no-names", Rewritten("no-names"))
register("ramem-rrf", Variant(fusion="rrf"))
register("context-shuffle", ContextShuffle())
#: Context shuffle without the speaker preference: how much of the shuffle's loss comes from
#: the preference lifting turns whose (shuffled) speaker the question names.
register("context-shuffle-no-speaker", ContextShuffle(Variant(speaker_bonus=0.0)))
#: RaMem's retrieval, answered with the flat prompt: differs from ramem in answer F1 only.
register("ramem-flat-prompt", Variant())
#: The BM25 text framed by the speaker's and addressee's names, as the restatement writes it,
#: and not (docs/rules.md, "lexical text"); RaMem and the content baseline.
register("lexical-framed", LexicalText(framed=True))
register("lexical-unframed", LexicalText(framed=False))
register("content-lexical-framed", LexicalText(framed=True, variant=None))
register("content-lexical-unframed", LexicalText(framed=False, variant=None))
#: ... and without the speakers' names in the lexical query either.
register("lexical-unframed-no-names", LexicalText(framed=False, names=False))
#: The spread step on, at three margins (docs/rules.md, ``spread``; 0.05 is ``with-spread``).
for _margin in (0.05, 0.1, 0.2):
    register(f"spread-{_margin}", Variant(adding=(Spread(margin=_margin),)))
#: Aliases learned without the messages that open by calling the other (docs/rules.md).
register("no-called-aliases", NoCalledAliases())
#: A long message searched by its best passage (BM25), at three passage lengths in words (a
#: quarter of each shared with the next), and shown by that passage when it does not fit
#: (docs/rules.md, "passages"); RaMem, and content for its baseline.
for _size in (40, 80, 160):
    _cut = Passages(size=_size, overlap=_size // 4)
    register(f"passages-{_size}", PassageSystem(_cut))
    register(f"excerpts-{_size}", PassageSystem(_cut, search=False, excerpts=True))
    register(f"passages-excerpts-{_size}", PassageSystem(_cut, excerpts=True))
    #: ... in a user-assistant chat, none of the assistant's turns, or none at all.
    for _rule, _suffix in (("assistant", "structural"), ("chat", "people")):
        _rules = PassageSystem(_cut, search=False, excerpts=True, structural=_rule)
        register(f"excerpts-{_size}-{_suffix}", _rules)
register("content-passages-80", PassageSystem(variant=None))
#: ... and dense search by passage too (each long message's passages embedded at load).
register("passages-dense-80", PassageSystem(dense=True))
register("passages-dense-excerpts-80", PassageSystem(dense=True, excerpts=True))
register("content-passages-dense-80", PassageSystem(dense=True, variant=None))
register("content-excerpts-80", PassageSystem(search=False, excerpts=True, variant=None))

# LlamaIndex systems (the llama-index extra): a plain vector retriever, and the same with
# RaMem's re-ranking postprocessor after it. Registered whether or not it is installed.
for _name, _system in (
    ("llama-vector", llama_vector),
    ("llama-vector+ramem", llama_vector_ramem),
    ("llama-vector-restated", llama_vector_restated),
):
    register(_name, NeedsExtra(_system, "llama_index.core", "llama-index-core", "llama-index"))
