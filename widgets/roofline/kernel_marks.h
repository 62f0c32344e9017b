// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

namespace crossroof::widgets {

/// The roofline's kernels as marks: at DRAM one disc per kernel, each of its own size and look, drawn by one
/// plottable (a graph per kernel made a pan of a 10,000-kernel export redraw 10,000 graphs); at L1, L2 and the
/// predictions one look for all (uniform, the graph's scatter style). A paint draws only the marks inside the
/// axis rect, and of the marks that fall on one pixel of the same size and look only the last (the one on top),
/// so that what it draws is bounded by the pixels, not by the kernels. The legend shows the first mark's look,
/// as the first kernel's graph did.
class KernelMarks : public QCPGraph
{
public:
    struct Mark
    {
        double key = 0;   ///< intensity
        double value = 0; ///< Gop/s
        double size = 6;  ///< pixels
        bool highlighted = false;
    };

    /// UNIFORM: every mark in the graph's scatter style (their size and highlighted are not used).
    KernelMarks(QCPAxis *keyAxis, QCPAxis *valueAxis, bool uniform = false);

    /// The marks, in drawing order (a later one lies over an earlier one).
    void setMarks(std::vector<Mark> marks);
    const std::vector<Mark> &marks() const { return m_marks; }
    /// How many marks the last paint drew (tests, the benchmark).
    int lastDrawn() const { return m_lastDrawn; }

    /// The look of a plain and of a highlighted mark of SIZE.
    static QCPScatterStyle style(double size, bool highlighted);

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
