// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/equilibrium_scan.h"

#include <QHash>
#include <QWidget>

#include <optional>
#include <vector>

class QGridLayout;
class QLabel;

namespace crossroof::widgets {

class ValueLabel;
class XModelEvaluation;

/// The numbers behind the X-graph: operating point, bound, margin, every equilibrium, landmarks and
/// metrics, each with its unit and (in the tooltip) its formula. The values are ValueLabels updated in place, so
/// a slider drag costs no text layout beyond the changed numbers. Ctrl+C with the panel focused (a click gives it
/// the focus), or Copy Readout in its context menu, copies every line as text.
class ReadoutPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReadoutPanel(XModelEvaluation *evaluation, QWidget *parent = nullptr);

    /// Every line as shown ("name: value"), as Copy Readout puts it on the clipboard.
    QString text() const;
    /// Puts text() on the clipboard.
    void copy() const;

private:
    ValueLabel *addRow(QGridLayout *grid, const QString &key, const QString &name, const QString &tip);
    void set(const QString &key, const QString &value);
    void refresh();
    /// The bound of a bistable machine, with f(k)'s shape kept while only n, Z or E change.
    double worstDegradationGbs(const core::XModelParams &params);

    XModelEvaluation *m_eval;
    QLabel *m_warning;
    QGridLayout *m_equilibriaGrid;
    std::vector<std::pair<ValueLabel *, ValueLabel *>> m_equilibria;
    QHash<QString, ValueLabel *> m_values;
    QHash<QString, QString> m_tips; ///< each value's tool tip as addRow() gave it
    QList<QPair<QLabel *, ValueLabel *>> m_rows; // display order
    std::optional<core::SupplyShape> m_shape;   ///< f(k)'s falling stretches, for the degradation bound
};

} // namespace crossroof::widgets
