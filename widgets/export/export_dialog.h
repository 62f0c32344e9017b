// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/figure_export.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QFontComboBox;
class QLineEdit;
class QSpinBox;

namespace crossroof::widgets {

/// Asks for a figure's file, size (presets or mm), resolution, font and style. The options persist between
/// runs (QSettings).
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ExportDialog(const QString &suggestedPath, QWidget *parent = nullptr);

    FigureOptions options() const;
    QString path() const;
    void setPath(const QString &path);
    void setOptions(const FigureOptions &options);

    /// The options last used (or the single-column defaults).
    static FigureOptions savedOptions();
    static void saveOptions(const FigureOptions &options);

private:
    void applyPreset(int index);
    void browse();
    void updateOk();

    QLineEdit *m_path;
    QComboBox *m_preset;
    QDoubleSpinBox *m_width;
    QDoubleSpinBox *m_height;
    QSpinBox *m_dpi;
    QFontComboBox *m_font;
    QSpinBox *m_fontSize;
    QComboBox *m_style;
};

} // namespace crossroof::widgets
