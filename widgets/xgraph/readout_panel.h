// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QWidget>

#include <vector>

class QGridLayout;
class QLabel;

namespace crossroof::widgets {

class XModelEvaluation;

/// The numbers behind the X-graph: operating point, bound, margin, every equilibrium, landmarks and
/// metrics, each with its unit and (in the tooltip) its formula. Plain-text labels updated in place, so a
/// slider drag costs no text layout beyond the changed numbers.
class ReadoutPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReadoutPanel(XModelEvaluation *evaluation, QWidget *parent = nullptr);

    /// Every line as shown ("name: value"), for tests and copying.
    QString text() const;

private:
    QLabel *addRow(QGridLayout *grid, const QString &key, const QString &name, const QString &tip);
    void set(const QString &key, const QString &value);
    void refresh();

    XModelEvaluation *m_eval;
    QLabel *m_warning;
    QGridLayout *m_equilibriaGrid;
    std::vector<std::pair<QLabel *, QLabel *>> m_equilibria;
    QHash<QString, QLabel *> m_values;
    QList<QPair<QLabel *, QLabel *>> m_rows; // display order
};

} // namespace crossroof::widgets
