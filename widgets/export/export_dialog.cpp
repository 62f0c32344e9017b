// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/export_dialog.h"

#include "common/file_folders.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// The box the preview fits the figure into, in pixels, where the screen has room for it.
constexpr QSize kPreviewBox(320, 200);
/// The least height of the box on a short screen.
constexpr int kLeastPreviewHeight = 100;
/// What a window's frame (title bar, borders) takes of the screen's height, about.
constexpr int kFrameHeight = 40;

} // namespace

ExportDialog::ExportDialog(const QString &suggestedPath, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export Figure"));
    auto *form = new QFormLayout(this);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("note"));
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    form->addRow(m_note);

    auto *pathRow = new QHBoxLayout;
    m_path = new QLineEdit(suggestedPath, this);
    m_path->setToolTip(tr("The format follows the file name: .pdf and .svg are vector, .png is raster"));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    // A row whose field is a layout gets no buddy from the form: without one, the label would show "&File".
    auto *pathLabel = new QLabel(tr("&File"), this);
    pathLabel->setBuddy(m_path);
    form->addRow(pathLabel, pathRow);

    m_preset = new QComboBox(this);
    for (const auto &p : figurePresets())
        m_preset->addItem(p.name, p.id);
    m_preset->addItem(tr("Custom"), QString());
    form->addRow(tr("&Size"), m_preset);

    auto mm = [this](double value) {
        auto *box = new QDoubleSpinBox(this);
        box->setRange(10, 1000);
        box->setDecimals(1);
        box->setSuffix(tr(" mm"));
        box->setValue(value);
        return box;
    };
    m_width = mm(85);
    m_height = mm(60);
    form->addRow(tr("&Width"), m_width);
    form->addRow(tr("&Height"), m_height);

    m_dpi = new QSpinBox(this);
    m_dpi->setRange(30, 2400);
    m_dpi->setValue(300);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("Resolution of PNG output (PDF and SVG are vector)"));
    form->addRow(tr("&Resolution"), m_dpi);

    m_font = new QFontComboBox(this);
    m_font->setCurrentFont(QApplication::font());
    form->addRow(tr("F&ont"), m_font);
    m_fontSize = new QSpinBox(this);
    m_fontSize->setRange(4, 48);
    m_fontSize->setValue(8);
    m_fontSize->setSuffix(tr(" pt"));
    form->addRow(tr("Font si&ze"), m_fontSize);
    m_minFontSize = new QSpinBox(this);
    m_minFontSize->setRange(0, 48);
    m_minFontSize->setValue(7);
    m_minFontSize->setSuffix(tr(" pt"));
    m_minFontSize->setToolTip(tr("No text gets smaller than this, not even a crowded legend or a long axis title"));
    form->addRow(tr("S&mallest text"), m_minFontSize);
    m_lineWidth = new QDoubleSpinBox(this);
    m_lineWidth->setRange(0.1, 4);
    m_lineWidth->setDecimals(2);
    m_lineWidth->setSingleStep(0.05);
    m_lineWidth->setValue(0.5);
    m_lineWidth->setSuffix(tr(" pt"));
    m_lineWidth->setToolTip(tr("The width of a thin line; thicker lines, markers and tick marks grow with it"));
    form->addRow(tr("&Lines"), m_lineWidth);

    m_style = new QComboBox(this);
    m_style->addItem(tr("Colour (colour-blind safe)"), int(FigureStyle::Colour));
    m_style->addItem(tr("Greyscale (dashes and markers)"), int(FigureStyle::Greyscale));
    form->addRow(tr("S&tyle"), m_style);

    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setFixedSize(kPreviewBox);
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setToolTip(tr("The figure as it will be exported, scaled down"));
    m_preview->setVisible(false); // until there are plots to draw
    form->addRow(m_preview);
    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(120); // once typing or spinning pauses: a figure takes a while to lay out
    connect(m_previewTimer, &QTimer::timeout, this, &ExportDialog::updatePreview);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export"));
    form->addRow(buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_preset, &QComboBox::activated, this, &ExportDialog::applyPreset);
    const auto matchPreset = [this] {
        // Sizes that are no preset's make the choice "Custom".
        const QSignalBlocker block(m_preset);
        int match = m_preset->count() - 1;
        const auto presets = figurePresets();
        for (int i = 0; i < presets.size(); ++i) {
            if (std::abs(presets[i].width_mm - m_width->value()) < 0.05
                && std::abs(presets[i].height_mm - m_height->value()) < 0.05
                && presets[i].font_pt == m_fontSize->value() && presets[i].min_font_pt == m_minFontSize->value()
                && std::abs(presets[i].line_pt - m_lineWidth->value()) < 0.005)
                match = i;
        }
        m_preset->setCurrentIndex(match);
    };
    for (QDoubleSpinBox *box : {m_width, m_height, m_lineWidth}) {
        connect(box, &QDoubleSpinBox::valueChanged, this, matchPreset);
        connect(box, &QDoubleSpinBox::valueChanged, m_previewTimer, qOverload<>(&QTimer::start));
    }
    for (QSpinBox *box : {m_fontSize, m_minFontSize}) {
        connect(box, &QSpinBox::valueChanged, this, matchPreset);
        connect(box, &QSpinBox::valueChanged, m_previewTimer, qOverload<>(&QTimer::start));
    }
    connect(m_font, &QFontComboBox::currentFontChanged, m_previewTimer, qOverload<>(&QTimer::start));
    connect(m_style, &QComboBox::currentIndexChanged, m_previewTimer, qOverload<>(&QTimer::start));
    connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::updateOk);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    setOptions(savedOptions());
    updateOk();
}

void ExportDialog::setNote(const QString &note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void ExportDialog::applyPreset(int index)
{
    const auto presets = figurePresets();
    if (index < 0 || index >= presets.size())
        return;
    setOptions(withPreset(options(), presets[index]));
}

void ExportDialog::browse()
{
    const QString file = saveFileName(this, FileKind::Export, tr("Export Figure"), m_path->text(),
                                      tr("PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)"));
    if (!file.isEmpty())
        m_path->setText(file);
}

void ExportDialog::updateOk()
{
    auto *box = findChild<QDialogButtonBox *>();
    if (box)
        box->button(QDialogButtonBox::Ok)->setEnabled(figureFormatForPath(m_path->text()).has_value());
}

void ExportDialog::setPreviewPlots(const QList<QCustomPlot *> &plots)
{
    m_previewPlots = plots;
    // On a short screen (1600x1000 at a scale factor of 2 leaves some 470 pixels) the preview gives up height,
    // so that the whole dialog fits: it was 536 pixels tall at least.
    int height = kPreviewBox.height();
    if (const QScreen *screen = parentWidget() ? parentWidget()->screen() : this->screen(); screen && !plots.isEmpty()) {
        // The rest of the dialog: all of it less the preview where that is in it already.
        const int spacing = std::max(0, layout()->spacing());
        const int rest = minimumSizeHint().height() + spacing
                         - (m_preview->isHidden() ? 0 : m_preview->height() + spacing);
        const int room = screen->availableGeometry().height() - kFrameHeight - rest;
        height = std::clamp(room, kLeastPreviewHeight, kPreviewBox.height());
    }
    m_preview->setFixedSize(kPreviewBox.width() * height / kPreviewBox.height(), height);
    m_preview->setVisible(!plots.isEmpty());
    updatePreview();
}

void ExportDialog::updatePreview()
{
    m_previewTimer->stop();
    if (m_previewPlots.isEmpty()) {
        m_previewImage = QImage();
        m_preview->clear();
        return;
    }
    // Drawn at the resolution that makes it about as large as the box (no less than the export allows), then
    // scaled to fit: the preview shows the figure's proportions and its text as large as on paper.
    FigureOptions o = options();
    const QSize box = m_preview->size();
    const double fit = std::min(box.width() / o.width_mm, box.height() / o.height_mm) * 25.4;
    o.dpi = std::max(30, int(std::ceil(fit)));
    const QImage image = renderFigure(m_previewPlots, o);
    if (image.isNull()) {
        m_previewImage = QImage();
        m_preview->setText(tr("(no preview at these settings)"));
        return;
    }
    m_previewImage = image.scaled(box, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    m_preview->setPixmap(QPixmap::fromImage(m_previewImage));
}

FigureOptions ExportDialog::options() const
{
    FigureOptions o;
    o.width_mm = m_width->value();
    o.height_mm = m_height->value();
    o.dpi = m_dpi->value();
    o.font_family = m_font->currentFont().family();
    o.font_pt = m_fontSize->value();
    o.min_font_pt = m_minFontSize->value();
    o.line_pt = m_lineWidth->value();
    o.style = FigureStyle(m_style->currentData().toInt());
    return o;
}

QString ExportDialog::path() const
{
    return m_path->text();
}

void ExportDialog::setPath(const QString &path)
{
    m_path->setText(path);
}

void ExportDialog::setOptions(const FigureOptions &o)
{
    m_width->setValue(o.width_mm);
    m_height->setValue(o.height_mm);
    m_dpi->setValue(o.dpi);
    if (!o.font_family.isEmpty())
        m_font->setCurrentFont(QFont(o.font_family));
    m_fontSize->setValue(o.font_pt);
    m_minFontSize->setValue(o.min_font_pt);
    m_lineWidth->setValue(o.line_pt);
    m_style->setCurrentIndex(m_style->findData(int(o.style)));
}

FigureOptions ExportDialog::savedOptions()
{
    QSettings s;
    FigureOptions o;
    o.width_mm = s.value(QStringLiteral("export/width_mm"), o.width_mm).toDouble();
    o.height_mm = s.value(QStringLiteral("export/height_mm"), o.height_mm).toDouble();
    o.dpi = s.value(QStringLiteral("export/dpi"), o.dpi).toInt();
    o.font_family = s.value(QStringLiteral("export/font_family")).toString();
    o.font_pt = s.value(QStringLiteral("export/font_pt"), o.font_pt).toInt();
    o.min_font_pt = s.value(QStringLiteral("export/min_font_pt"), o.min_font_pt).toInt();
    o.line_pt = s.value(QStringLiteral("export/line_pt"), o.line_pt).toDouble();
    o.style = s.value(QStringLiteral("export/greyscale"), false).toBool() ? FigureStyle::Greyscale
                                                                         : FigureStyle::Colour;
    return o;
}

void ExportDialog::saveOptions(const FigureOptions &o)
{
    QSettings s;
    s.setValue(QStringLiteral("export/width_mm"), o.width_mm);
    s.setValue(QStringLiteral("export/height_mm"), o.height_mm);
    s.setValue(QStringLiteral("export/dpi"), o.dpi);
    s.setValue(QStringLiteral("export/font_family"), o.font_family);
    s.setValue(QStringLiteral("export/font_pt"), o.font_pt);
    s.setValue(QStringLiteral("export/min_font_pt"), o.min_font_pt);
    s.setValue(QStringLiteral("export/line_pt"), o.line_pt);
    s.setValue(QStringLiteral("export/greyscale"), o.style == FigureStyle::Greyscale);
}

} // namespace crossroof::widgets
