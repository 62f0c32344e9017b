// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStaticText>
#include <QString>
#include <QWidget>

namespace crossroof::widgets {

/// One line of text that changes on every step of a slider's drag: a readout's value. A QLabel lays its text
/// out again for its size hint and again to paint it, and every new text makes the layout around it ask every
/// label of the panel for its size; a selectable QLabel even builds a text document each time. This label
/// measures a new text once, draws it from a QStaticText, and asks for a new layout only when the text no
/// longer fits the width it asked for, or leaves much of it empty: its width hint moves in steps of two
/// average characters and keeps one step to spare. Text that is wider than the label is given is elided.
class ValueLabel : public QWidget
{
    Q_OBJECT
public:
    explicit ValueLabel(Qt::Alignment alignment = Qt::AlignLeft, QWidget *parent = nullptr);

    QString text() const { return m_text; }
    void setText(const QString &text);
    void clear() { setText(QString()); }

    /// How many times a new text changed the size hint (tests).
    int hintChanges() const { return m_hintChanges; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    /// Measures the text; returns whether the width hint changed.
    bool measure();

    QString m_text;
    QStaticText m_static;
    Qt::Alignment m_alignment;
    int m_advance = 0; ///< the text's width in pixels
    int m_hintWidth = 0;    ///< the width asked for, a multiple of the step
    int m_minimumWidth = 0; ///< the text's width when the hint last moved
    int m_hintChanges = 0;
};

} // namespace crossroof::widgets
