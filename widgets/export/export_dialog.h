// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/figure_export.h"

#include <QDialog>
#include <QImage>
#include <QList>

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QFontComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace crossroof::widgets {

/// Asks for a figure's file, size (presets or mm), resolution, font, line width and style, and shows a preview
/// of the figure drawn as the export will draw it. The options persist between runs (QSettings).
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ExportDialog(const QString &suggestedPath, QWidget *parent = nullptr);

    FigureOptions options() const;
    QString path() const;
    void setPath(const QString &path);
    void setOptions(const FigureOptions &options);
    /// The plots the preview draws (those the export will), drawn again a moment after any option changes.
    void setPreviewPlots(const QList<QCustomPlot *> &plots);
    /// A line above the fields saying what the export writes (File > Export All Views: one file per view).
    void setNote(const QString &note);
    /// The preview as last drawn: the whole figure scaled into the preview's box; null without plots.
    QImage previewImage() const { return m_previewImage; }

    /// The options last used (or the single-column defaults).
    static FigureOptions savedOptions();
    static void saveOptions(const FigureOptions &options);

private:
    void applyPreset(int index);
    void browse();
    void updateOk();
    void updatePreview();

    QLabel *m_note;
    QLineEdit *m_path;
    QComboBox *m_preset;
    QDoubleSpinBox *m_width;
    QDoubleSpinBox *m_height;
    QSpinBox *m_dpi;
    QFontComboBox *m_font;
    QSpinBox *m_fontSize;
    QSpinBox *m_minFontSize;
    QDoubleSpinBox *m_lineWidth;
    QComboBox *m_style;
    QLabel *m_preview;
    QTimer *m_previewTimer;
    QList<QCustomPlot *> m_previewPlots;
    QImage m_previewImage;
};

} // namespace crossroof::widgets
