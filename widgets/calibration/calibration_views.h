// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the calibration dialog draws a joint fit: predicted against measured, every value, every parameter.

#include "core/calibration/joint_calibration.h"
#include "core/xmodel/parameters.h"

#include <QString>

class QCustomPlot;
class QTableWidget;

namespace crossroof::widgets {

/// A source's share of a fitted parameter as the dialog shows it: "34 %", "<1 %".
QString shareText(double share);

/// Sets up PLOT for predicted against measured values: log axes, labels with their units, legend below.
void setupCalibrationPlot(QCustomPlot *plot);
/// One scatter per source of FIT (its own colour and marker, named by its file) and the y = x line over the
/// values' range; an empty plot without FIT.
void drawCalibration(QCustomPlot *plot, const core::JointCalibration *fit);

/// Sets up TABLE for every measured value: source, line, measured, predicted, unit, error, accuracy, value.
void setupValuesTable(QTableWidget *table);
void fillValuesTable(QTableWidget *table, const core::JointCalibration *fit);

/// Sets up TABLE for the parameters a fit changes: key, before, after, unit, where the value comes from.
void setupParametersTable(QTableWidget *table);
/// One row per fitted key (START's value, the fitted one, the sources' shares, whether it is on a bound) and
/// per key set directly by a measurement.
void fillParametersTable(QTableWidget *table, const core::JointCalibration *fit,
                         const core::XModelParams &start);

} // namespace crossroof::widgets
