// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/buffered_color_map.h"


namespace crossroof::widgets {

namespace {

/// QCPColorMap draws a map with fewer than this many cells along an axis from an oversampled image; such maps
/// are small, and left to it.
constexpr int kOversampledBelow = 101;

} // namespace

void BufferedColorMap::setCells(const std::vector<double> &cells, int keySize, int valueSize,
                                const QCPRange &keyRange, const QCPRange &valueRange)
{
    QCPColorMapData *data = this->data();
    data->setSize(keySize, valueSize); // allocates only when the size changes
    data->setRange(keyRange, valueRange);
    const bool direct = !mInterpolate && keySize >= kOversampledBelow && valueSize >= kOversampledBelow
                        && keyAxis() && keyAxis()->orientation() == Qt::Horizontal
                        && cells.size() == std::size_t(keySize) * std::size_t(valueSize);
    m_cells = direct ? &cells : nullptr;
    if (!direct) {
        for (int j = 0; j < valueSize; ++j) {
            for (int i = 0; i < keySize; ++i)
                data->setCell(i, j, cells[std::size_t(j) * std::size_t(keySize) + std::size_t(i)]);
        }
    }
    mMapImageInvalidated = true;
}

void BufferedColorMap::updateMapImage()
{
    if (!m_cells) {
        QCPColorMap::updateMapImage();
        return;
    }
    const int keySize = data()->keySize();
    const int valueSize = data()->valueSize();
    // An opaque gradient gives an opaque image, which the painter scales onto the plot without blending.
    bool opaque = mGradient.nanHandling() != QCPColorGradient::nhTransparent
                  && (mGradient.nanHandling() != QCPColorGradient::nhNanColor || mGradient.nanColor().alpha() == 255);
    for (const QColor &stop : mGradient.colorStops())
        opaque = opaque && stop.alpha() == 255;
    const QImage::Format format = opaque ? QImage::Format_RGB32 : QImage::Format_ARGB32_Premultiplied;
    if (mMapImage.size() != QSize(keySize, valueSize) || mMapImage.format() != format)
        mMapImage = QImage(QSize(keySize, valueSize), format);
    // Rows from the bottom: the value axis counts upwards, the image's scan lines downwards.
    const bool logarithmic = mDataScaleType == QCPAxis::stLogarithmic;
    for (int line = 0; line < valueSize; ++line) {
        auto *pixels = reinterpret_cast<QRgb *>(mMapImage.scanLine(valueSize - 1 - line));
        mGradient.colorize(m_cells->data() + std::size_t(line) * std::size_t(keySize), mDataRange, pixels, keySize, 1,
                           logarithmic);
    }
    mMapImageInvalidated = false;
}

} // namespace crossroof::widgets
