// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_panel.h"

#include "common/cached_group_box.h"
#include "common/fine_slider.h"
#include "common/thread_unit.h"

#include "common/parameter_state.h"
#include "common/number_format.h"
#include "common/qt_text.h"
#include "core/xmodel/measured_curve.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// Symbols as the papers print them.
QString prettySymbol(std::string_view symbol)
{
    // Greek names as letters, and what follows the first '_' as a subscript: gamma_2 is γ₂, R_dram R with "dram"
    // below.
    QString s = qs(symbol);
    QString sub;
    if (const qsizetype underscore = s.indexOf(QLatin1Char('_')); underscore > 0) {
        sub = s.mid(underscore + 1);
        s.truncate(underscore);
    }
    static const QHash<QString, QString> greek {{QStringLiteral("alpha"), QStringLiteral("α")},
                                               {QStringLiteral("beta"), QStringLiteral("β")},
                                               {QStringLiteral("gamma"), QStringLiteral("γ")}};
    s = greek.value(s, s);
    return sub.isEmpty() ? s : QStringLiteral("%1<sub>%2</sub>").arg(s, sub);
}

} // namespace

int ParameterPanel::minimumSliderLength()
{
    // One length for every row, so that the rows are laid out alike: all beside their boxes, or all below.
    static const int length = [] {
        int most = kMinSliderLength;
        for (const core::ParameterInfo &info : core::parameterInfos()) {
            if (info.log_scale)
                most = std::max(most, int(std::ceil(std::log10(info.slider_max / info.slider_min) * kPixelsPerDecade)));
        }
        return most;
    }();
    return length;
}

int ParameterPanel::sliderPosition(const core::ParameterInfo &info, double value)
{
    double t = 0;
    if (info.log_scale) {
        const double v = std::max(value, info.slider_min);
        t = std::log(v / info.slider_min) / std::log(info.slider_max / info.slider_min);
    } else {
        t = (value - info.slider_min) / (info.slider_max - info.slider_min);
    }
    return int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

double ParameterPanel::sliderValue(const core::ParameterInfo &info, int position)
{
    const double t = double(std::clamp(position, 0, kSliderSteps)) / kSliderSteps;
    double v = info.log_scale ? info.slider_min * std::pow(info.slider_max / info.slider_min, t)
                              : info.slider_min + t * (info.slider_max - info.slider_min);
    if (info.integer)
        v = std::round(v);
    // Round to the spin box's precision so a slider step and the spin box show the same number.
    const double scale = std::pow(10.0, info.decimals);
    return std::round(v * scale) / scale;
}

ParameterPanel::ParameterPanel(ParameterState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);

    auto addGroup = [&](const QString &title, std::initializer_list<const char *> keys, QComboBox *extra) {
        auto *box = new CachedGroupBox(title, this);
        auto *form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (extra) { // a word, not a symbol: above its box, so the symbols' column stays narrow
            auto *label = new QLabel(tr("Cache mode"), box);
            label->setBuddy(extra);
            form->addRow(label);
            form->addRow(extra);
        }
        for (const char *key : keys) {
            const auto *info = core::findParameter(key);
            QWidget *row = makeRow(*info);
            Row &r = m_rows[QString::fromLatin1(key)];
            form->addRow(r.label, row);
        }
        outer->addWidget(box);
    };

    addGroup(tr("Workload"), {"n", "Z", "E"}, nullptr);
    addGroup(tr("Memory parallelism"), {"m", "req_bytes", "l2_bytes", "dram_bytes"}, nullptr);

    m_cacheMode = new QComboBox(this);
    m_cacheMode->addItem(tr("None: f(k) = k / Lm(k)"), int(core::CacheMode::None));
    m_cacheMode->addItem(tr("Fixed hit rate h (Eq. 1)"), int(core::CacheMode::Fixed));
    m_cacheMode->addItem(tr("Locality α, β (Eq. 3, 5)"), int(core::CacheMode::Locality));
    m_cacheMode->addItem(tr("Two levels, L1 and L2"), int(core::CacheMode::TwoLevel));
    m_cacheMode->setToolTip(tr("How the shared cache enters the memory supply f(k) (docs/MODEL.md 1.3)"));
    connect(m_cacheMode, &QComboBox::activated, this, [this](int index) {
        m_state->applyCacheMode(core::CacheMode(m_cacheMode->itemData(index).toInt()));
    });
    addGroup(tr("Shared cache"), {"h", "S_s", "L_s", "alpha", "beta", "bypass", "h_2", "S_2", "alpha_2"}, m_cacheMode);
    addGroup(tr("Machine"), {"R", "R_dram", "R_l2", "R_l1", "L", "L_2", "M", "L_c"}, nullptr);
    // One column of symbols for every group: the boxes and sliders of all groups start at the same place.
    int symbols = 0;
    for (const Row &row : std::as_const(m_rows))
        symbols = std::max(symbols, row.label->sizeHint().width());
    for (const Row &row : std::as_const(m_rows))
        row.label->setMinimumWidth(symbols);

    auto *device = new CachedGroupBox(tr("Device (from the profile)"), this);
    auto *deviceLayout = new QVBoxLayout(device);
    m_deviceFacts = new QLabel(device);
    m_deviceFacts->setTextFormat(Qt::RichText);
    m_deviceFacts->setWordWrap(true);
    deviceLayout->addWidget(m_deviceFacts);
    outer->addWidget(device);

    auto *reset = new QPushButton(tr("&Reset to Profile"), this);
    reset->setToolTip(tr("Set every parameter back to the values of the current profile (undoable)"));
    connect(reset, &QPushButton::clicked, m_state, &ParameterState::applyResetToProfile);
    outer->addWidget(reset);
    outer->addStretch(1);

    connect(m_state, &ParameterState::valueChanged, this, &ParameterPanel::showValue);
    connect(m_state, &ParameterState::cacheModeChanged, this, [this] { showAll(); });
    connect(m_state, &ParameterState::profileChanged, this, [this] { showAll(); });
    // Use as f(k) and its undo change the parameters' measured curve without a profile switch.
    connect(m_state, &ParameterState::changed, this, [this] {
        if (m_state->params().measured_f != m_shownSupply)
            updateCacheModeText();
    });
    showAll();
}

QWidget *ParameterPanel::makeRow(const core::ParameterInfo &info)
{
    const QString key = qs(info.key);
    Row row;
    row.info = &info;
    const QString unit = qs(info.unit);
    const QString tip = QStringLiteral("<b>%1</b> (%2%3)<br>%4")
                            .arg(qs(info.label), qs(info.symbol),
                                 unit.isEmpty() ? QString() : QStringLiteral(", ") + unit, qs(info.tooltip));
    row.label = new QLabel(prettySymbol(info.symbol), this);
    row.label->setTextFormat(Qt::RichText);
    // The workload's three keys, the ones a user sets most, have mnemonics: Alt+N, Alt+Z and Alt+E reach them.
    if (key == QLatin1String("n") || key == QLatin1String("Z") || key == QLatin1String("E")) {
        row.label->setTextFormat(Qt::PlainText);
        row.label->setText(QLatin1Char('&') + key);
    }
    row.label->setToolTip(tip);
    row.label->setWhatsThis(tip);

    row.slider = new FineSlider(this);
    row.slider->setRange(0, kSliderSteps);
    row.slider->setPageStep(kSliderSteps / 20);
    const QString sliderTip = tip + tr("<br><i>Shift while dragging: steps a tenth as fine. The box takes an exact "
                                       "value.</i>");
    row.slider->setToolTip(sliderTip);
    row.slider->setWhatsThis(sliderTip);
    row.slider->setAccessibleName(qs(info.label));
    row.slider->setObjectName(QStringLiteral("slider_") + key);
    row.spin = new QDoubleSpinBox(this);
    row.spin->setRange(info.min, info.max);
    row.spin->setDecimals(info.decimals);
    row.spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    row.spin->setKeyboardTracking(false);
    row.spin->setSuffix(unit.isEmpty() ? QString() : QStringLiteral(" ") + unit);
    row.spin->setToolTip(tip);
    row.spin->setWhatsThis(tip);
    row.spin->setAccessibleName(qs(info.label));
    row.spin->setObjectName(QStringLiteral("spin_") + key);
    row.spin->setMinimumWidth(110);
    row.label->setBuddy(row.spin);
    auto *container = new SliderRow(row.slider, row.spin, minimumSliderLength(), this);

    connect(row.slider, &QSlider::sliderPressed, m_state, &ParameterState::beginInteraction);
    connect(row.slider, &QSlider::sliderReleased, m_state, &ParameterState::endInteraction);
    connect(row.slider, &QSlider::valueChanged, this,
            [this, key, &info](int pos) { m_state->applyValue(key, sliderValue(info, pos)); });
    connect(row.spin, &QDoubleSpinBox::valueChanged, this, [this, key](double v) { m_state->applyValue(key, v); });

    m_rows.insert(key, row);
    return container;
}

QSlider *ParameterPanel::slider(const QString &key) const
{
    return m_rows.value(key).slider;
}

QDoubleSpinBox *ParameterPanel::spinBox(const QString &key) const
{
    return m_rows.value(key).spin;
}

void ParameterPanel::showValue(const QString &key, double value)
{
    const auto it = m_rows.constFind(key);
    if (it == m_rows.constEnd())
        return;
    const QSignalBlocker blockSlider(it->slider);
    const QSignalBlocker blockSpin(it->spin);
    // Keep the slider where the user holds it: its position already produced this value.
    if (!it->slider->isSliderDown())
        it->slider->setValue(sliderPosition(*it->info, value));
    it->spin->setValue(value);
}

void ParameterPanel::showAll()
{
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it)
        showValue(it.key(), m_state->value(it.key()));
    {
        const QSignalBlocker block(m_cacheMode);
        m_cacheMode->setCurrentIndex(m_cacheMode->findData(int(m_state->params().cache)));
    }
    updateEnabled();
    updateDeviceFacts();
    updateCacheModeText();
}

void ParameterPanel::updateCacheModeText()
{
    // A measured f(k) is f up to its last point; the analytic mode only continues it beyond, scaled to join it.
    m_shownSupply = m_state->params().measured_f;
    const int none = m_cacheMode->findData(int(core::CacheMode::None));
    const QString general = tr("How the shared cache enters the memory supply f(k) (docs/MODEL.md 1.3)");
    if (!m_shownSupply) {
        m_cacheMode->setItemText(none, tr("None: f(k) = k / Lm(k)"));
        m_cacheMode->setToolTip(general);
        return;
    }
    m_cacheMode->setItemText(none, tr("None: measured f(k), then k / Lm(k)"));
    m_cacheMode->setToolTip(tr("f(k) is the measured curve %1 up to k = %2: it replaces the cache mode's f(k) "
                               "there; the mode only continues it beyond, scaled to join its last point. "
                               "Traces > Use as f(k) switches it off.")
                                    .arg(qs(m_shownSupply->source()), formatNumber(m_shownSupply->last())));
}

void ParameterPanel::updateEnabled()
{
    const auto mode = m_state->params().cache;
    auto enable = [this](const char *key, bool on, const QString &why) {
        const Row &r = m_rows[QString::fromLatin1(key)];
        for (QWidget *w : {static_cast<QWidget *>(r.label), static_cast<QWidget *>(r.slider),
                           static_cast<QWidget *>(r.spin)}) {
            w->setEnabled(on);
        }
        r.slider->setStatusTip(on ? QString() : why);
    };
    enable("h", mode == core::CacheMode::Fixed, tr("Used with cache mode 'fixed'"));
    enable("L_s", mode != core::CacheMode::None, tr("Used with a cache mode"));
    const bool capacity = mode == core::CacheMode::Locality || mode == core::CacheMode::TwoLevel;
    const bool twoLevel = mode == core::CacheMode::TwoLevel;
    enable("S_s", capacity, tr("Used with cache modes 'locality' and 'two-level'"));
    enable("alpha", capacity, tr("Used with cache modes 'locality' and 'two-level'"));
    enable("beta", capacity, tr("Used with cache modes 'locality' and 'two-level'"));
    enable("bypass", mode != core::CacheMode::None, tr("Used with a cache mode"));
    enable("h_2", mode == core::CacheMode::Fixed, tr("Used with cache mode 'fixed'"));
    enable("S_2", twoLevel, tr("Used with cache mode 'two-level'"));
    enable("alpha_2", twoLevel, tr("Used with cache mode 'two-level'"));
}

void ParameterPanel::updateDeviceFacts()
{
    const auto &p = m_state->params();
    const auto &prof = m_state->profile();
    const double rreq = p.requestRate();
    QString cc;
    if (!prof.compute_capability.empty())
        cc = tr(", CC %1").arg(QString::fromStdString(prof.compute_capability));
    // A CPU profile counts hardware threads on cores where a GPU counts warps on SMs (one thread is one "warp").
    const QString cpuFacts = tr("%1 cores × %2 GHz%3<br>up to %4 threads/core<br>request (cache line) %5 B<br>"
                                "R<sub>req</sub> = %6 req/cycle/core<br>δ = R<sub>req</sub>·L = %7 threads");
    const QString gpuFacts = tr("%1 SMs × %2 GHz%3<br>warp %8 threads, up to %4 warps/SM<br>request %5 B<br>"
                                "R<sub>req</sub> = %6 req/cycle/SM<br>δ = R<sub>req</sub>·L = %7 warps");
    QString facts = (prof.kind == "cpu" ? cpuFacts : gpuFacts)
                            .arg(p.sm_count)
                            .arg(p.clock_ghz, 0, 'g', 4)
                            .arg(cc)
                            .arg(p.max_warps)
                            .arg(p.request_bytes)
                            .arg(rreq, 0, 'g', 4)
                            .arg(rreq * p.L, 0, 'f', 1);
    if (prof.kind != "cpu")
        facts = facts.arg(p.warp_size);
    m_deviceFacts->setText(facts);
    if (const auto it = m_rows.constFind(QStringLiteral("n")); it != m_rows.constEnd())
        it->spin->setSuffix(QLatin1Char(' ') + threadUnit(prof));
    m_deviceFacts->setToolTip(QString::fromStdString(prof.description));
}

} // namespace crossroof::widgets
