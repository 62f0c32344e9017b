// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/kernel_state.h"

#include "common/long_work.h"
#include "common/native_path.h"
#include "common/parameter_state.h"
#include "core/support/error.h"
#include "state/kernel_label.h"

#include <QFileInfo>

namespace crossroof::widgets {

KernelState::KernelState(ParameterState *params, QObject *parent)
    : QObject(parent)
    , m_params(params)
    , m_table(std::make_shared<const core::KernelTable>())
    , m_job(this,
            [this](Result r) {
                ++m_computed;
                take(r.report, std::move(r.table), true);
            })
{
    // A drag of n or Z changes no prediction: the basis stays, nothing is computed.
    connect(m_params, &ParameterState::changed, this, &KernelState::request);
}

KernelState::~KernelState() = default;

KernelState::Basis KernelState::basisNow() const
{
    Basis basis {m_params->params(), m_params->profile()};
    basis.params.n = 0;
    basis.params.Z = 0;
    return basis;
}

std::shared_ptr<const core::KernelTable> KernelState::compare(const core::NcuReport &report, const Basis &basis)
{
    try {
        return std::make_shared<const core::KernelTable>(
                core::compareKernels(report, basis.params, basis.profile));
    } catch (const core::InputError &e) {
        // Parameters the model refuses for every kernel: no predictions, and why.
        auto table = std::make_shared<core::KernelTable>();
        table->machine = basis.params;
        table->warnings.push_back(std::string("no predictions: ") + e.what());
        return table;
    }
}

QString KernelState::loadFile(const QString &path, QWidget *progressParent, bool *cancelled)
{
    if (cancelled)
        *cancelled = false;
    const Basis basis = basisNow();
    std::optional<Result> read;
    try {
        read = runWithProgress<Result>(
                progressParent, tr("Reading the kernels of %1…").arg(QFileInfo(path).fileName()),
                [native = nativePath(path), basis] {
                    auto report = std::make_shared<const core::NcuReport>(core::readNcuCsv(native));
                    auto table = compare(*report, basis);
                    return Result {std::move(report), basis, std::move(table)};
                });
    } catch (const core::InputError &e) {
        return QString::fromUtf8(e.what());
    }
    if (!read) {
        if (cancelled)
            *cancelled = true;
        return {};
    }
    m_report = read->report;
    m_requested = basis;
    ++m_computed;
    take(read->report, std::move(read->table), false);
    Q_EMIT reportChanged();
    Q_EMIT tableChanged();
    request(); // the parameters moved while the file was read
    return {};
}

void KernelState::setReport(std::shared_ptr<const core::NcuReport> report)
{
    if (report == m_report)
        return;
    m_report = std::move(report);
    m_requested.reset();
    // No rows until this report's come: the last report's rows are other kernels.
    take(m_report, std::make_shared<const core::KernelTable>(), false);
    Q_EMIT reportChanged();
    Q_EMIT tableChanged();
    request();
}

void KernelState::clear()
{
    setReport(nullptr);
}

void KernelState::request()
{
    const Basis basis = basisNow();
    if (!m_report || m_requested == basis)
        return;
    m_requested = basis;
    m_job.request([report = m_report, basis](std::stop_token) {
        return Result {report, basis, compare(*report, basis)};
    });
}

void KernelState::take(const std::shared_ptr<const core::NcuReport> &report,
                       std::shared_ptr<const core::KernelTable> table, bool announce)
{
    // A table of a report since replaced is dropped: its rows are another report's kernels.
    if (report != m_report)
        return;
    m_table = std::move(table);
    m_accuracy = core::kernelAccuracy(m_table->rows);
    m_rows.clear();
    if (m_report) {
        for (std::size_t i = 0; i < m_report->kernels.size() && i < m_table->rows.size(); ++i)
            m_rows.insert(kernelLabel(m_report->kernels[i]), i);
    }
    if (announce)
        Q_EMIT tableChanged();
}

const core::KernelRow *KernelState::row(const QString &label) const
{
    const auto it = m_rows.constFind(label);
    return it == m_rows.constEnd() ? nullptr : &m_table->rows[*it];
}

void KernelState::wait()
{
    m_job.wait();
}

QString modelOffPercent(const core::KernelAccuracy &accuracy)
{
    return QString::number(100 * (1 - accuracy.model), 'f', 1);
}

} // namespace crossroof::widgets
