r"""Figures for papers: DET, ROC, EPC with bootstrap bands, Bayes error rate (plain or
normalized), Cllr over the prior, score histograms.

Every function takes the tidy trial table (the curve functions also take the Dataset that
:mod:`pandas_biosig.verification._curves` or :func:`pandas_biosig.epc_bootstrap` returned), draws one
curve per system (and ``by`` group and split) with a legend outside the data, on the right
of the axes, and returns the matplotlib ``Axes``; :func:`hist` draws small multiples, one
axes per system and split, and returns them as an array. Pass ``ax=`` to draw into axes
you already have (save with ``bbox_inches="tight"`` to keep the legend); otherwise a new
figure is made with :func:`matplotlib.pyplot.subplots` (constrained layout).

matplotlib is a dependency of pandas-biosig, imported only when a figure is drawn, so ``import pandas_biosig`` never imports it.

The same functions are reachable from the accessor: ``trials.biosig.plot.det()`` is
``pbs.plot.det(trials)``.

Rates are plotted as fractions and labelled in percent. The DET axes are in normal-deviate
units: a point at rate :math:`r` is drawn at ``pbs.ppndf(r)``, and the ticks
(:data:`DET_TICKS`, thinned to the axes' size each time the figure is drawn) are labelled
with the rates, in percent. A marked EER lies on the drawn curve, and the legend's title
says which EER it is.

The figures of presentation attacks (:func:`pad_det`, :func:`epsc`) and of demographic
differentials (:func:`fmr_heatmap`, :func:`group_det`) and of ASV and CM systems in
tandem (:func:`tdcf_curve`) live here too. One module per figure family: ``det_roc``,
``expected_performance``, ``bayes``, ``calibration``, ``histograms``, ``pad``, ``demographics``, ``tandem``; ``_axes`` holds the helpers they share (axes, legends, DET ticks and
limits) and ``_namespace`` the ``df.biosig.plot`` mirror.
"""

from ._axes import DET_TICKS
from ._bayes import bayes_error
from ._calibration import cllr_curve
from ._demographics import fmr_heatmap, group_det
from ._det_roc import det, roc
from ._epc import epc
from ._histograms import hist
from ._pad import epsc, pad_det
from ._tandem import tdcf_curve

__all__ = [
    "DET_TICKS", "bayes_error", "cllr_curve", "det", "epc", "epsc", "fmr_heatmap", "group_det", "hist",
    "pad_det", "roc", "tdcf_curve",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
