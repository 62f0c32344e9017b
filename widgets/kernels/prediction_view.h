// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QCustomPlot;
class QLabel;

namespace crossroof::widgets {

class EmptyState;

class KernelState;

/// Predicted against measured DRAM throughput per kernel (the X-model paper's Fig. 11, for the user's own
/// kernels), on log-log axes: the line y = x, bands of ±10 % and ±20 % around it, one named point per kernel
/// with a prediction, and the mean accuracy of the model beside a memory roofline's and the roofline's. The
/// predictions are KernelState's (core::compareKernels() of the report with the current parameters: each
/// kernel's own workload, the current E and machine). The kernel selected in the Kernels dock is ringed, and
/// what bounds it and the model's best changes for it are said below the plot (kernelDiagnosisText()).
class PredictionView : public QWidget
{
    Q_OBJECT
public:
    explicit PredictionView(KernelState *kernels, QWidget *parent = nullptr);

    /// What is drawn: (measured, predicted) DRAM GB/s and the label of each point, in report order.
    struct Point
    {
        std::size_t kernel = 0;
        double measured_gbs = 0;
        double predicted_gbs = 0;
        QString label;
    };
    /// Brought up to date first (the state's predictions for the current parameters, the view drawn).
    const std::vector<Point> &points()
    {
        upToDate();
        return m_points;
    }
    /// The comparison behind the plot, brought up to date first.
    const std::optional<core::KernelAccuracy> &accuracy()
    {
        upToDate();
        return m_accuracy;
    }
    QCustomPlot *plot() const { return m_plot; }
    /// The plots a figure of this view shows.
    /// The plot for a figure, brought up to date first: a view never shown (File > Export All Views, crossroof-cli
    /// render) has not drawn its kernels yet.
    QList<QCustomPlot *> figurePlots()
    {
        upToDate();
        return {m_plot};
    }
    QLabel *summary() const { return m_summary; }
    QCheckBox *namesBox() const { return m_names; }
    /// The selected kernel's diagnosis (hidden while none is selected).
    QLabel *diagnosisLabel() const { return m_diagnosis; }
    /// Rings the kernels labelled LABELS (kernelLabel(), as the Kernels dock names its selection) and gives
    /// the first one's diagnosis.
    void setHighlighted(const QStringList &labels);
    /// Names left out because no place near their point was free.
    int hiddenLabels() const { return m_hiddenLabels; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();
    void catchUp();
    /// Waits for the state's predictions, then catchUp().
    void upToDate();
    void draw();
    void placeLabels();
    void showDiagnosis();

    KernelState *m_kernels;
    QCustomPlot *m_plot;
    QLabel *m_summary;
    EmptyState *m_empty = nullptr;
    QCheckBox *m_names;
    QLabel *m_diagnosis;
    QStringList m_highlighted;
    std::vector<Point> m_points;
    int m_hiddenLabels = 0; ///< names that found no free place (placeLabels())
    std::optional<core::KernelAccuracy> m_accuracy;
    bool m_stale = false;
};

} // namespace crossroof::widgets
