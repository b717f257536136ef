"""The replicated papers: one table, read by every view that names a paper.

:data:`PAPERS` lists each paper once, with its citation (as the notebooks' title cells and
``src/weaklabel/published/`` give it) and the pipeline stages that replicate its parts; a
paper of several parts (WellSVM) has several stages. :data:`CERTIFICATION` names the stages
that certify the solvers: they belong to no paper. A new paper adds its row here and
nothing else in the shared modules.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Paper", "PAPERS", "CERTIFICATION", "paper_of_stage", "stage_parts"]


@dataclass(frozen=True)
class Paper:
    """One paper: ``key`` (its section id), ``name`` (as the claims tables name it),
    ``title``, ``authors``, ``year``, ``venue``, and ``parts``: ``(stage, what it
    replicates)`` in reading order."""

    key: str
    name: str
    title: str
    authors: str
    year: int
    venue: str
    parts: tuple[tuple[str, str], ...]

    @property
    def stages(self) -> tuple[str, ...]:
        return tuple(s for s, _ in self.parts)

    @property
    def citation(self) -> str:
        """``Authors (year). Title. Venue.``"""
        return f"{self.authors} ({self.year}). {self.title}. {self.venue}."


PAPERS: tuple[Paper, ...] = (
    Paper("usmo", "USMO", "Efficient Training for Positive Unlabeled Learning",
          "Sansone, De Natale, Zhou", 2019, "TPAMI",
          (("usmo", "Tables III-IV, Figs 1-7"),)),
    Paper("mcls", "MCLS", "Learning from Positive and Unlabelled Examples Using Maximum "
          "Margin Clustering", "Chaudhari, Shevade", 2012, "ICONIP",
          (("mcls", "Tables 1-4, Figs 1-2"),)),
    Paper("wellsvm", "WellSVM", "Convex and Scalable Weakly Labeled SVMs",
          "Li, Tsang, Kwok, Zhou", 2013, "JMLR 14, 2151-2188",
          (("wellsvm", "semi-supervised: Tables 2-4, 6-7, Figs 1-2"),
           ("wellsvm_clustering", "clustering: Tables 8, 11, Fig. 7"),
           ("wellsvm_mil", "multi-instance: Tables 9-10, Figs 5-6"),
           ("wellsvm_linear", "large-scale linear: Table 5, Figs 3-4, 8-9"))),
    Paper("tsgsu", "TSGSU", "Triply stochastic gradient method for large-scale nonlinear "
          "similar unlabeled classification", "Shi, Gu, Li, Deng, Huang", 2021,
          "Machine Learning 110(8), 2005-2033",
          (("tsgsu", "Tables 4-5, Figs 1-4 (claims)"),)),
)

#: stages that certify the solvers against reference QPs: (stage, what it shows)
CERTIFICATION: tuple[tuple[str, str], ...] = (
    ("solvers", "the reference-QP pattern on a C-SVM dual against scikit-learn"),)


def paper_of_stage(stage: str) -> Paper | None:
    """The paper that ``stage`` replicates a part of, or None."""
    return next((p for p in PAPERS if stage in p.stages), None)


def stage_parts() -> dict[str, str]:
    """``{stage: what it replicates}`` over every paper and the certification."""
    return {s: part for p in PAPERS for s, part in p.parts} | dict(CERTIFICATION)
