// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/point_labels.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

class QCustomPlot;

namespace crossroof::widgets {

/// The X-graph's kernels named in place, as the roofline names its kernels: the kernels selected in the Kernels
/// dock and the one the model predicts worst, each beside its star (with a leader line where set off from it),
/// clear of the curves, the markers and each other (placePointLabels()). Placed again whenever the plot is laid
/// out for other ranges or another size, and for a figure at its own size and text (placePointLabelsForFigure()).
class KernelNames : public QObject
{
    Q_OBJECT
public:
    struct Kernel
    {
        double warps = 0; ///< x: warps per SM
        double gbs = 0;   ///< y: measured GB/s
        QString label;    ///< as the trace names it: "short name [ID]"
        std::optional<double> predicted; ///< the model's GB/s
    };

    explicit KernelNames(QCustomPlot *plot);

    /// The kernels on the plot and the labels of those selected; names the selected ones and the worst predicted
    /// (the largest |predicted − measured| / measured), at the next layout of the plot.
    void setKernels(std::vector<Kernel> kernels, const QStringList &selected);
    /// The names to draw, selected first ("gemm [4]"), the worst predicted last: what was asked, before placing.
    QStringList wanted() const { return m_wanted; }
    /// How many of them the last placing left out (no clear place near their star).
    int leftOut() const { return m_leftOut; }

    /// A kernel's short name on a plot: its base name (no namespaces, no template arguments) and launch ID.
    static QString shortName(const QString &label);

private:
    /// Places the names for the plot's present layout, unless they were placed for it already. Whether it did.
    bool place();
    /// The names to place and every kernel's star as a mark in their way.
    std::vector<PointLabel> pointLabels() const;

    QPointer<QCustomPlot> m_plot;
    std::vector<Kernel> m_kernels;
    QStringList m_wanted;
    std::vector<std::size_t> m_named; ///< indexes into m_kernels, as m_wanted
    QString m_placedFor; ///< what the last placing saw: ranges, size and names
    int m_leftOut = 0;
    bool m_labelsShown = false; ///< the last placing put names on the plot
};

} // namespace crossroof::widgets
