// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QImage>
#include <QRgb>

#include <algorithm>
#include <cstdlib>

/// Comparing two renderings of the same picture, pixel by pixel.
namespace crossroof::test {

/// The largest difference of one colour channel (red, green or blue) between P and Q.
inline int channelDifference(QRgb p, QRgb q)
{
    return std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
}

/// The largest channelDifference() of A and B at any pixel (of two images of one size).
inline int largestChannelDifference(const QImage &a, const QImage &b)
{
    int worst = 0;
    for (int y = 0; y < std::min(a.height(), b.height()); ++y) {
        for (int x = 0; x < std::min(a.width(), b.width()); ++x)
            worst = std::max(worst, channelDifference(a.pixel(x, y), b.pixel(x, y)));
    }
    return worst;
}

} // namespace crossroof::test
