// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;

namespace crossroof::widgets {

class XModelEvaluation;

/// The numbers behind the X-graph: operating point, bound, margin, every equilibrium, landmarks and
/// metrics, each with its unit and (in the tooltip) its formula.
class ReadoutPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReadoutPanel(XModelEvaluation *evaluation, QWidget *parent = nullptr);

    /// The readout as shown (rich text), for tests and copying.
    QString text() const;

private:
    void refresh();

    XModelEvaluation *m_eval;
    QLabel *m_label;
};

} // namespace crossroof::widgets
