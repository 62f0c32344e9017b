// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <vector>

namespace crossroof::widgets {

/// A colour map that colours its cells straight from a buffer of its owner's into the map image, instead of
/// taking them one QCPColorMapData::setCell() call at a time: a 400 x 400 surface was a quarter of
/// the Markov view's redraw that way. Small maps, which QCPColorMap draws oversampled, still go through
/// QCPColorMapData; there data()->cell() holds the values, for large maps only data()'s size and ranges are set.
class BufferedColorMap : public QCPColorMap
{
public:
    using QCPColorMap::QCPColorMap;

    /// Shows CELLS (KEY_SIZE x VALUE_SIZE, row-major with the key fastest, NaN drawn as the gradient's NaN
    /// colour) over KEY_RANGE x VALUE_RANGE. The buffer is read when the map is next drawn: it must stay
    /// unchanged until then or until the next setCells().
    void setCells(const std::vector<double> &cells, int keySize, int valueSize, const QCPRange &keyRange,
                  const QCPRange &valueRange);

protected:
    void updateMapImage() override;

private:
    const std::vector<double> *m_cells = nullptr; ///< none: the cells are in data()
};

} // namespace crossroof::widgets
