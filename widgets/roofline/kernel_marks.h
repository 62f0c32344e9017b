// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

namespace crossroof::widgets {

/// The roofline's kernels as marks, all of one look (the graph's scatter style, which exports restyle as any
/// graph's) and each of its own size or all of the style's size (UNIFORM): at DRAM the discs sized by duration,
/// at L1, L2 and the predictions one size for all. One plottable draws them (a graph per kernel made a pan of a
/// 10,000-kernel export redraw 10,000 graphs). A paint draws only the marks inside the axis rect, and of the
/// marks that fall on one pixel with one size only the last (the one on top), so that what it draws is bounded
/// by the pixels, not by the kernels.
class KernelMarks : public QCPGraph
{
public:
    struct Mark
    {
        double key = 0;   ///< intensity
        double value = 0; ///< Gop/s
        double size = 0;  ///< pixels (not UNIFORM)
    };

    KernelMarks(QCPAxis *keyAxis, QCPAxis *valueAxis, bool uniform);

    /// The marks, in drawing order (a later one lies over an earlier one).
    void setMarks(std::vector<Mark> marks);
    const std::vector<Mark> &marks() const { return m_marks; }
    /// How many marks the last paint drew (tests).
    int lastDrawn() const { return m_lastDrawn; }

protected:
    void draw(QCPPainter *painter) override;

private:
    std::vector<Mark> m_marks;
    bool m_uniform;
    int m_lastDrawn = 0;
};

/// An arrow from a kernel's prediction to its measurement. Arrows of one draw() of the roofline share a pass:
/// of those that start and end on the same pixels in one paint only the first is drawn (a whole application's
/// export repeats its kernels, and two hundred arrows on one another cost a pan as much as the rest of it).
class KernelArrow : public QCPItemLine
{
public:
    struct Pass
    {
        std::unordered_set<std::uint64_t> cells; ///< the start and end pixels drawn in this paint
        int drawn = 0;                           ///< arrows drawn in this paint
    };
    /// FIRST: the arrow drawn first in each paint (the layer draws its items in the order they were made),
    /// which begins the pass.
    KernelArrow(QCustomPlot *plot, std::shared_ptr<Pass> pass, bool first);

protected:
    void draw(QCPPainter *painter) override;

private:
    std::shared_ptr<Pass> m_pass;
    bool m_first;
};

} // namespace crossroof::widgets
