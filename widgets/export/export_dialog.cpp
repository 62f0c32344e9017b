// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/export_dialog.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>

namespace crossroof::widgets {

ExportDialog::ExportDialog(const QString &suggestedPath, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export Figure"));
    auto *form = new QFormLayout(this);

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

    m_style = new QComboBox(this);
    m_style->addItem(tr("Colour (colour-blind safe)"), int(FigureStyle::Colour));
    m_style->addItem(tr("Greyscale (dashes and markers)"), int(FigureStyle::Greyscale));
    form->addRow(tr("S&tyle"), m_style);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export"));
    form->addRow(buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_preset, &QComboBox::activated, this, &ExportDialog::applyPreset);
    for (QDoubleSpinBox *box : {m_width, m_height}) {
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            // Typing a size that is no preset's makes the choice "Custom".
            const QSignalBlocker block(m_preset);
            int match = m_preset->count() - 1;
            const auto presets = figurePresets();
            for (int i = 0; i < presets.size(); ++i) {
                if (std::abs(presets[i].width_mm - m_width->value()) < 0.05
                    && std::abs(presets[i].height_mm - m_height->value()) < 0.05)
                    match = i;
            }
            m_preset->setCurrentIndex(match);
        });
    }
    connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::updateOk);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    setOptions(savedOptions());
    updateOk();
}

void ExportDialog::applyPreset(int index)
{
    const auto presets = figurePresets();
    if (index < 0 || index >= presets.size())
        return;
    m_width->setValue(presets[index].width_mm);
    m_height->setValue(presets[index].height_mm);
}

void ExportDialog::browse()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Export Figure"), m_path->text(),
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

FigureOptions ExportDialog::options() const
{
    FigureOptions o;
    o.width_mm = m_width->value();
    o.height_mm = m_height->value();
    o.dpi = m_dpi->value();
    o.font_family = m_font->currentFont().family();
    o.font_pt = m_fontSize->value();
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
    s.setValue(QStringLiteral("export/greyscale"), o.style == FigureStyle::Greyscale);
}

} // namespace crossroof::widgets
