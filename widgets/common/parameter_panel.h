// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/parameters.h"

#include <QHash>

#include <memory>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace crossroof::widgets {

class ParameterState;

/// Slider + spin box + unit for every X-model parameter, the cache mode and the device facts of the
/// profile. Two-way: user edits go to the state (undoable), state changes come back without echo.
class ParameterPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ParameterPanel(ParameterState *state, QWidget *parent = nullptr);

    /// Slider positions run over [0, kSliderSteps].
    static constexpr int kSliderSteps = 1000;
    /// A slider beside its box is never shorter than kMinSliderLength pixels, nor than kPixelsPerDecade for each
    /// decade of the log slider of most decades (Z's 0.01 to 10⁴: 180 px); where the dock is narrower, every
    /// slider goes below its box, across the dock.
    static constexpr int kMinSliderLength = 120;
    static constexpr int kPixelsPerDecade = 30;
    static int minimumSliderLength();
    static int sliderPosition(const core::ParameterInfo &info, double value);
    static double sliderValue(const core::ParameterInfo &info, int position);

    QSlider *slider(const QString &key) const;
    QDoubleSpinBox *spinBox(const QString &key) const;
    QComboBox *cacheModeBox() const { return m_cacheMode; }
    /// The profile's device in a few lines (SMs or cores, clock, warp or thread slots, R_req, delta).
    QLabel *deviceFacts() const { return m_deviceFacts; }

private:
    struct Row
    {
        const core::ParameterInfo *info = nullptr;
        QLabel *label = nullptr;
        QSlider *slider = nullptr;
        QDoubleSpinBox *spin = nullptr;
    };

    QWidget *makeRow(const core::ParameterInfo &info);
    void showValue(const QString &key, double value);
    void showAll();
    void updateEnabled();
    void updateDeviceFacts();
    /// The cache mode box says when a measured curve stands in for f(k).
    void updateCacheModeText();

    ParameterState *m_state;
    QHash<QString, Row> m_rows;
    QComboBox *m_cacheMode = nullptr;
    QLabel *m_deviceFacts = nullptr;
    std::shared_ptr<const core::MeasuredCurve> m_shownSupply; ///< the measured f(k) the cache mode box names
};

} // namespace crossroof::widgets
