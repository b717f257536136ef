"""scikit-learn style estimators: the methods and baselines of each paper.

One submodule per paper (``models/<paper>.py``). Every name in a submodule's ``__all__`` is
importable from here (``from weaklabel.models import DoubleHingePU``); the submodule is
imported on first use (:mod:`weaklabel._exports`), so this file lists no paper.
"""

from .._exports import install as _install

_install(__name__)
