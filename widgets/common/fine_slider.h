// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSlider>
#include <QWidget>

class QBoxLayout;

namespace crossroof::widgets {

/// A horizontal slider whose handle, dragged, moves as far as the pointer (as a QSlider's does), or a tenth as
/// far while Shift is held: fine steps on a slider whose range spans decades. Pressing or letting go of Shift
/// mid-drag carries on from where the handle is, without a jump.
class FineSlider : public QSlider
{
    Q_OBJECT
public:
    /// How much slower the handle moves with Shift held.
    static constexpr int kFineFactor = 10;

    explicit FineSlider(QWidget *parent = nullptr);

    /// The pixels the handle travels from one end of the range to the other at the slider's width.
    int span() const;
    /// Where the handle is drawn now, in the slider's coordinates.
    QRect handleRect() const;

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    /// Starts measuring the drag from PIXEL, with the handle where it is now, at the gain MODIFIERS ask for.
    void anchor(double pixel, Qt::KeyboardModifiers modifiers);

    bool m_dragging = false;
    bool m_fine = false;
    double m_anchorPixel = 0;
    double m_anchorValue = 0;
};

/// A slider beside its spin box, or, where the row is too narrow to give the slider MINLENGTH pixels beside the
/// box, the box above and the slider below it across the row's whole width: a slider over decades keeps a
/// length a hand can drag at every dock width.
class SliderRow : public QWidget
{
    Q_OBJECT
public:
    SliderRow(QSlider *slider, QWidget *spinBox, int minLength, QWidget *parent = nullptr);

    /// Whether the slider is below the box (the row was too narrow for both side by side).
    bool stacked() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrange(int width);

    QSlider *m_slider;
    QWidget *m_spin;
    QBoxLayout *m_layout;
    int m_minLength;
};

} // namespace crossroof::widgets
