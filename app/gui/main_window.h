// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

namespace crossroof::widgets {
class ParameterPanel;
class ParameterState;
class ProfilePicker;
class ReadoutPanel;
class XGraphView;
class XModelEvaluation;
} // namespace crossroof::widgets

namespace crossroof::app {

/// Assembles the state, the docks, the views and the menus. Views talk only to the state.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    widgets::ParameterState *state() const { return m_state; }
    widgets::ParameterPanel *parameterPanel() const { return m_panel; }
    widgets::XGraphView *xgraphView() const { return m_xgraph; }
    widgets::ReadoutPanel *readout() const { return m_readout; }
    widgets::ProfilePicker *profilePicker() const { return m_picker; }

    /// Opens a profile file; on failure shows the validation message and keeps the current profile.
    bool openProfileFile(const QString &path);
    /// Selects a bundled profile by id or opens a file path; false (with a message) if neither works.
    bool selectProfile(const QString &idOrPath);

private:
    void createMenus();
    void updateTitle();
    void showError(const QString &message);

    widgets::ParameterState *m_state;
    widgets::XModelEvaluation *m_eval;
    widgets::ParameterPanel *m_panel;
    widgets::ProfilePicker *m_picker;
    widgets::XGraphView *m_xgraph;
    widgets::ReadoutPanel *m_readout;
};

} // namespace crossroof::app
