// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/mapping_view.h"

#include "common/labelled.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "core/support/error.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace crossroof::widgets {

namespace {

/// Colours of the thread counts in the bar chart, in ascending order of threads.
const QColor kThreadColours[] = {plot_style::kSky, plot_style::kOrange, plot_style::kGreen, plot_style::kPurple,
                                 plot_style::kBlue, plot_style::kVermillion, plot_style::kYellow};
/// Greyscale-safe fills to go with them.
const Qt::BrushStyle kThreadPatterns[] = {Qt::SolidPattern, Qt::BDiagPattern, Qt::Dense4Pattern, Qt::CrossPattern,
                                          Qt::FDiagPattern, Qt::Dense6Pattern, Qt::HorPattern};

QDoubleSpinBox *probabilityBox(QWidget *parent, double value, const QString &tip)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setRange(0, 1);
    box->setDecimals(4);
    box->setSingleStep(0.01);
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

} // namespace

MappingView::MappingView(QWidget *parent)
    : QWidget(parent)
{
    auto *bar = new QHBoxLayout;
    m_profile = new QComboBox(this);
    m_profile->setToolTip(tr("A CPU profile with a cache topology and mapping strategies (hardware_profiles/)"));
    addLabelled(bar, tr("&CPU"), m_profile);
    const core::MappingSettings defaults;
    m_p = probabilityBox(this, defaults.p,
                         tr("p: probability that an active thread suspends in one step, for every strategy without "
                            "its own (p, q) in the table"));
    addLabelled(bar, tr("Common &p"), m_p);
    m_q = probabilityBox(this, defaults.q,
                         tr("q: probability that a suspended thread stays suspended in one step, for every strategy "
                            "without its own (p, q) in the table"));
    addLabelled(bar, tr("Common &q"), m_q);
    m_addStrategy = new QPushButton(tr("Add &Strategy…"), this);
    m_addStrategy->setToolTip(tr("Define a thread-to-core binding of your own for this CPU: a name and the core of "
                                 "each thread"));
    bar->addWidget(m_addStrategy);
    m_removeStrategy = new QPushButton(tr("Remove Strategy"), this);
    m_removeStrategy->setToolTip(tr("Remove the selected strategy of your own (the profile's stay)"));
    m_removeStrategy->setEnabled(false);
    bar->addWidget(m_removeStrategy);
    bar->addStretch(1);

    m_info = new QLabel(this);
    m_info->setWordWrap(true);

    m_table = new QTableWidget(0, ColumnCount, this);
    QStringList headers(ColumnCount);
    headers[Strategy] = tr("Strategy");
    headers[Cpi] = tr("CPI");
    headers[P] = tr("p");
    headers[Q] = tr("q");
    headers[Model] = tr("Model (groups × threads)");
    headers[Threads] = tr("Threads");
    headers[Cores] = tr("Cores");
    headers[Caches] = tr("Caches");
    headers[Sockets] = tr("Sockets");
    headers[Binding] = tr("Binding");
    m_table->setHorizontalHeaderLabels(headers);
    m_table->horizontalHeaderItem(P)->setToolTip(tr("This strategy's p; edit it to enter a measured value, clear it "
                                                    "to use the common p"));
    m_table->horizontalHeaderItem(Q)->setToolTip(tr("This strategy's q; edit it to enter a measured value, clear it "
                                                    "to use the common q"));
    m_table->horizontalHeaderItem(Cpi)->setToolTip(
            tr("Steady-state CPI = 1 / (1 − P_all), P_all = Π over used caches of (p / (p + 1 − q))^threads"));
    m_table->horizontalHeaderItem(Model)->setToolTip(
            tr("The Markov model: one group per shared cache the strategy uses, with the threads bound to its cores"));
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Binding, QHeaderView::Stretch);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             | QAbstractItemView::AnyKeyPressed);
    m_table->setMinimumHeight(200);

    m_plot = new QCustomPlot(this);
    plot_style::setupAxes(m_plot);
    PlotNavigator::install(m_plot);
    m_plot->yAxis->setLabel(tr("steady-state CPI (cycles per instruction)"));
    plot_style::setShortLabel(m_plot->yAxis, tr("CPI"));
    m_plot->xAxis->setLabel(tr("mapping strategy"));
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->legend->setVisible(true);
    plot_style::placeLegendBelow(m_plot);
    m_plot->setMinimumSize(420, 260);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_info);
    layout->addWidget(m_plot, 3);
    layout->addWidget(m_table, 2);

    connect(m_profile, &QComboBox::currentIndexChanged, this, [this] {
        // Measured points and the user's strategies belong to the cores of the profile they were entered for.
        m_points.clear();
        m_own.clear();
        recompute();
    });
    connect(m_addStrategy, &QPushButton::clicked, this, &MappingView::askForStrategy);
    connect(m_removeStrategy, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row >= 0 && std::size_t(row) < m_rows.size())
            removeOwnStrategy(m_rows[std::size_t(row)].strategy->id);
    });
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        m_removeStrategy->setEnabled(row >= 0 && std::size_t(row) < m_rows.size()
                                     && isOwn(m_rows[std::size_t(row)].strategy->id));
    });
    connect(m_p, &QDoubleSpinBox::valueChanged, this, &MappingView::recompute);
    connect(m_q, &QDoubleSpinBox::valueChanged, this, &MappingView::recompute);
    connect(m_table, &QTableWidget::cellChanged, this, &MappingView::cellEdited);
    recompute();
}

void MappingView::setCpuProfiles(const std::vector<core::HardwareProfile> &profiles)
{
    const QString chosen = m_profile->currentData().toString();
    m_profiles.clear();
    for (const auto &prof : profiles) {
        if (prof.topology && !prof.topology->strategies.empty())
            m_profiles.push_back(prof);
    }
    {
        const QSignalBlocker block(m_profile);
        m_profile->clear();
        for (const auto &prof : m_profiles)
            m_profile->addItem(QString::fromStdString(prof.name), QString::fromStdString(prof.id));
        m_profile->setCurrentIndex(std::max(0, m_profile->findData(chosen)));
    }
    recompute();
}

const core::HardwareProfile *MappingView::profile() const
{
    const std::string id = m_profile->currentData().toString().toStdString();
    for (const auto &prof : m_profiles) {
        if (prof.id == id)
            return &prof;
    }
    return nullptr;
}

void MappingView::setStrategyPoint(const std::string &strategy, std::optional<std::pair<double, double>> point)
{
    std::erase_if(m_points, [&](const core::MappingSettings::Point &pt) { return pt.strategy == strategy; });
    if (point)
        m_points.push_back({strategy, point->first, point->second});
    recompute();
}

QString MappingView::refusal(const core::HardwareProfile &prof, const core::MappingSettings::OwnStrategy &own) const
{
    core::CpuTopology topo = topology(prof);
    topo.strategies.push_back({own.id, {}, own.cores});
    try {
        core::validate(topo);
    } catch (const core::InputError &e) {
        // "topology.strategies[12].cores: core 99 is in no cache of the topology": the part after the field.
        return QString::fromStdString(e.what()).section(QStringLiteral(": "), 1);
    }
    return {};
}

bool MappingView::isOwn(const std::string &id) const
{
    return std::any_of(m_own.begin(), m_own.end(), [&](const auto &own) { return own.id == id; });
}

core::CpuTopology MappingView::topology(const core::HardwareProfile &prof) const
{
    core::CpuTopology topo = *prof.topology;
    for (const auto &own : m_own)
        topo.strategies.push_back({own.id, tr("Your strategy").toStdString(), own.cores});
    return topo;
}

QString MappingView::addOwnStrategy(const QString &id, const QString &coresText)
{
    const core::HardwareProfile *prof = profile();
    if (!prof)
        return tr("No CPU profile is chosen.");
    const QString name = id.trimmed();
    if (name.isEmpty())
        return tr("The strategy needs a name.");
    core::MappingSettings::OwnStrategy own{name.toStdString(), {}};
    const QStringList parts = coresText.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return tr("Give the core of each thread, e.g. 0, 0, 8, 8 for two threads on each of cores 0 and 8.");
    for (const QString &part : parts) {
        bool ok = false;
        const int core = part.toInt(&ok);
        if (!ok || core < 0)
            return tr("'%1' is not a core id (a whole number from 0).").arg(part.left(40));
        own.cores.push_back(core);
    }
    if (const QString why = refusal(*prof, own); !why.isEmpty())
        return why;
    m_own.push_back(std::move(own));
    recompute();
    return {};
}

void MappingView::removeOwnStrategy(const std::string &id)
{
    const auto removed = std::erase_if(m_own, [&](const auto &own) { return own.id == id; });
    if (removed == 0)
        return;
    std::erase_if(m_points, [&](const core::MappingSettings::Point &pt) { return pt.strategy == id; });
    recompute();
}

void MappingView::askForStrategy()
{
    const core::HardwareProfile *prof = profile();
    if (!prof)
        return;
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("AddStrategyDialog"));
    dialog.setWindowTitle(tr("Add Mapping Strategy"));
    auto *form = new QFormLayout(&dialog);
    auto *name = new QLineEdit(&dialog);
    name->setObjectName(QStringLiteral("strategyName"));
    name->setText(tr("mine %1").arg(m_own.size() + 1));
    auto *cores = new QLineEdit(&dialog);
    cores->setObjectName(QStringLiteral("strategyCores"));
    cores->setPlaceholderText(tr("e.g. 0, 0, 8, 8"));
    const core::CpuTopology &topo = *prof->topology;
    cores->setToolTip(tr("The core of each thread in turn; a core may hold several threads. %1 numbers its cores "
                         "0 to %2; the %3 caches: %4.")
                              .arg(QString::fromStdString(prof->name))
                              .arg(topo.coreCount() - 1)
                              .arg(QString::fromStdString(topo.cache_level))
                              .arg(QString::fromStdString(topo.caches.front().name) + QStringLiteral(" (cores ")
                                   + QString::number(topo.caches.front().cores.front()) + QStringLiteral(" …), …")));
    auto *problem = new QLabel(&dialog);
    problem->setObjectName(QStringLiteral("strategyProblem"));
    problem->setWordWrap(true);
    form->addRow(tr("&Name"), name);
    form->addRow(tr("&Cores, one per thread"), cores);
    form->addRow(problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        const QString why = addOwnStrategy(name->text(), cores->text());
        if (why.isEmpty())
            dialog.accept();
        else
            problem->setText(why); // the dialog stays open with what the user typed
    });
    cores->setFocus();
    dialog.exec();
}

void MappingView::cellEdited(int row, int column)
{
    if (m_filling || (column != P && column != Q) || row < 0 || std::size_t(row) >= m_rows.size())
        return;
    const core::MappingPrediction &r = m_rows[std::size_t(row)];
    const QString text = m_table->item(row, column)->text().trimmed();
    if (text.isEmpty()) {
        setStrategyPoint(r.strategy->id, std::nullopt);
        return;
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !(v >= 0 && v <= 1)) {
        m_info->setText(tr("%1, %2: '%3' is not a probability between 0 and 1; kept %4.")
                                .arg(QString::fromStdString(r.strategy->id), column == P ? tr("p") : tr("q"),
                                     text, formatNumber(column == P ? r.p : r.q)));
        const QSignalBlocker block(m_table);
        m_table->item(row, column)->setText(formatNumber(column == P ? r.p : r.q));
        return;
    }
    setStrategyPoint(r.strategy->id, column == P ? std::pair(v, r.q) : std::pair(r.p, v));
}

void MappingView::recompute()
{
    const core::HardwareProfile *prof = profile();
    m_rows.clear();
    m_removeStrategy->setEnabled(false);
    for (QCPBars *b : m_bars)
        m_plot->removePlottable(b);
    m_bars.clear();
    if (!prof) {
        m_info->setText(tr("No CPU profile with mapping strategies is loaded. Open one with File › Open Profile "
                           "(see docs/PROFILES.md, \"topology\")."));
        m_table->setRowCount(0);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        Q_EMIT settingsChanged();
        return;
    }
    m_topology = topology(*prof); // the rows point into it
    const core::CpuTopology &topo = m_topology;
    std::vector<std::optional<std::pair<double, double>>> points(topo.strategies.size());
    for (std::size_t i = 0; i < topo.strategies.size(); ++i) {
        for (const auto &pt : m_points) {
            if (pt.strategy == topo.strategies[i].id)
                points[i] = std::pair(pt.p, pt.q);
        }
    }
    try {
        m_rows = core::compareMappings(topo, m_p->value(), m_q->value(), std::nullopt, points);
    } catch (const core::InputError &e) {
        m_info->setText(QString::fromStdString(e.what()));
        m_table->setRowCount(0);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }

    // The table.
    {
        m_filling = true;
        const QSignalBlocker block(m_table);
        m_table->setRowCount(int(m_rows.size()));
        m_table->horizontalHeaderItem(Caches)->setText(tr("%1 caches").arg(QString::fromStdString(topo.cache_level)));
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            const auto &r = m_rows[i];
            const bool own = points[i].has_value();
            auto set = [&](int column, const QString &text, bool editable = false) {
                auto *item = new QTableWidgetItem(text);
                Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
                if (editable)
                    flags |= Qt::ItemIsEditable;
                item->setFlags(flags);
                if (column >= Threads && column != Binding && column != Model)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                if ((column == P || column == Q) && !own) {
                    QFont italic = item->font();
                    italic.setItalic(true);
                    item->setFont(italic);
                    item->setForeground(palette().color(QPalette::PlaceholderText));
                    item->setToolTip(tr("The common value; type a measured one for this strategy"));
                }
                m_table->setItem(int(i), column, item);
            };
            set(Strategy, QString::fromStdString(r.strategy->id));
            QStringList cores;
            for (int c : r.strategy->cores)
                cores << QString::number(c);
            set(Binding, tr("%1 (cores %2)").arg(QString::fromStdString(r.strategy->description), cores.join(QLatin1Char(' '))));
            set(Threads, QString::number(r.usage.threads));
            set(Cores, QString::number(r.usage.cores));
            set(Caches, QString::number(r.usage.caches));
            set(Sockets, QString::number(r.usage.sockets));
            set(Model, QString::fromStdString(core::markovShapeText(r.usage.threads_per_cache)));
            set(P, formatNumber(r.p), true);
            set(Q, formatNumber(r.q), true);
            set(Cpi, r.result.infinite ? tr("infinite") : formatNumber(r.result.cpi, 6));
        }
        m_filling = false;
    }

    // The bars: one set per thread count, so that the legend names the counts.
    std::map<int, QCPBars *> byThreads;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double top = 1;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const auto &r = m_rows[i];
        ticker->addTick(double(i), QString::fromStdString(r.strategy->id));
        QCPBars *&bars = byThreads[r.usage.threads];
        if (!bars) {
            bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
            bars->setName(r.usage.threads == 1 ? tr("1 thread") : tr("%1 threads").arg(r.usage.threads));
            bars->setWidth(0.7);
        }
        // An absorbing chain has no finite CPI: no bar, and the table says "infinite".
        if (!r.result.infinite) {
            bars->addData(double(i), r.result.cpi);
            top = std::max(top, r.result.cpi);
        }
    }
    int colour = 0;
    for (auto &[threads, bars] : byThreads) {
        // Past the seventh thread count the colours repeat with the next pattern, so no two counts look alike.
        const std::size_t shades = std::size(kThreadColours);
        const QColor c = kThreadColours[std::size_t(colour) % shades];
        bars->setPen(QPen(c.darker(140), 1));
        bars->setBrush(QBrush(c, kThreadPatterns[(std::size_t(colour) + std::size_t(colour) / shades) % std::size(kThreadPatterns)]));
        m_bars << bars;
        ++colour;
    }
    m_plot->xAxis->setTicker(ticker);
    // Many strategies (the EPYC's 22): names slanted, so that neighbours do not run into each other.
    m_plot->xAxis->setTickLabelRotation(m_rows.size() > 12 ? -45 : 0);
    m_plot->xAxis->setRange(-0.6, double(m_rows.size()) - 0.4);
    m_plot->yAxis->setRange(0, top * 1.1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    // What the numbers say.
    const bool allCommon = std::none_of(points.begin(), points.end(), [](const auto &p) { return p.has_value(); });
    const double lowest = std::min_element(m_rows.begin(), m_rows.end(), [](const auto &a, const auto &b) {
                              return a.result.cpi < b.result.cpi;
                          })->result.cpi;
    QStringList best;
    for (const auto &r : m_rows) {
        if (r.result.cpi <= lowest * (1 + 1e-12))
            best << QString::fromStdString(r.strategy->id);
    }
    // "1 socket, 12 L3 caches, 96 cores of 2 threads": counts with their nouns.
    const auto counted = [](qsizetype n, const QString &one, const QString &many) -> QString {
        return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
    };
    QString shape = counted(topo.sockets, tr("socket"), tr("sockets")) + QStringLiteral(", ")
                    + counted(qsizetype(topo.caches.size()), tr("%1 cache").arg(QString::fromStdString(topo.cache_level)),
                              tr("%1 caches").arg(QString::fromStdString(topo.cache_level)))
                    + QStringLiteral(", ") + counted(topo.coreCount(), tr("core"), tr("cores"));
    if (topo.threads_per_core > 1)
        shape += tr(" of %1 threads").arg(topo.threads_per_core);
    QString text = tr("%1: %2. Lowest CPI %3: %4.")
                           .arg(QString::fromStdString(prof->name), shape, formatNumber(lowest, 5),
                                best.join(QStringLiteral(", ")));
    if (allCommon) {
        text += QLatin1Char(' ')
                + tr("At one (p, q) the model's CPI depends only on the number of threads (P_all = s^N): where "
                     "they run matters through the p and q each strategy really has. Enter measured values in the "
                     "p and q columns (Markov CPI › p, q from counters) to compare the strategies.");
    }
    m_info->setText(text);
    Q_EMIT settingsChanged();
}

core::MappingSettings MappingView::settings() const
{
    core::MappingSettings s;
    if (const core::HardwareProfile *prof = profile())
        s.profile_id = prof->id;
    s.p = m_p->value();
    s.q = m_q->value();
    s.points = m_points;
    s.own_strategies = m_own;
    return s;
}

void MappingView::setSettings(const core::MappingSettings &s)
{
    {
        const QSignalBlocker b1(m_profile), b2(m_p), b3(m_q);
        const int index = m_profile->findData(QString::fromStdString(s.profile_id));
        if (index >= 0)
            m_profile->setCurrentIndex(index);
        m_p->setValue(s.p);
        m_q->setValue(s.q);
    }
    m_points = s.points;
    m_own = s.own_strategies;
    // A session's strategies that this profile's topology refuses are left out, and the view says which.
    QStringList refused;
    if (const core::HardwareProfile *prof = profile()) {
        std::vector<core::MappingSettings::OwnStrategy> kept;
        std::swap(kept, m_own);
        for (const auto &own : kept) {
            if (const QString why = refusal(*prof, own); why.isEmpty())
                m_own.push_back(own);
            else
                refused << QString::fromStdString(own.id) + QStringLiteral(": ") + why;
        }
    }
    recompute();
    if (!refused.isEmpty())
        m_info->setText(m_info->text() + QLatin1Char(' ') + tr("Left out of the session's own strategies: %1.").arg(refused.join(QStringLiteral("; "))));
}

} // namespace crossroof::widgets
