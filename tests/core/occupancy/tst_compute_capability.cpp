// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/occupancy/compute_capability.h"
#include "core/support/error.h"
#include "core/occupancy/occupancy.h"

#include <QFile>
#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace crossroof;
using core::Limiter;
using core::OccupancyInput;
using core::OccupancyMode;
using core::SweepVariable;

namespace {

/// Reads a CSV file into header -> column values (a parser independent of the one under test).
std::vector<std::map<QString, QString>> readCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = lines.front().split(QLatin1Char(','));
    std::vector<std::map<QString, QString>> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(QLatin1Char(','));
        std::map<QString, QString> row;
        for (qsizetype c = 0; c < header.size() && c < cells.size(); ++c)
            row[header[c]] = cells[c];
        rows.push_back(row);
    }
    return rows;
}

} // namespace

/// The compute-capability limits: embedded from data/cc_limits.csv, the same as the shared data set, the added rows as sourced.
class TestComputeCapability : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableComesFromTheCsv();
    void bundledRowsMatchTheDataSet();
    void addedRowsHoldTheSourcedFacts();
    void unknownComputeCapabilityIsRejected();
};

void TestComputeCapability::tableComesFromTheCsv()
{
    const auto rows = readCsv(QStringLiteral(CROSSROOF_SOURCE_DIR "/core/occupancy/data/cc_limits.csv"));
    const auto table = core::computeCapabilities();
    QCOMPARE(table.size(), rows.size());
    QVERIFY(table.size() >= 16);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto row = rows[i];
        const auto &cc = table[i];
        QCOMPARE(QString::fromStdString(cc.name), row[QStringLiteral("cc")]);
        QCOMPARE(cc.max_warps_sm, row[QStringLiteral("max_warps_sm")].toInt());
        QCOMPARE(cc.max_threads_sm, row[QStringLiteral("max_threads_sm")].toInt());
        QCOMPARE(cc.max_blocks_sm, row[QStringLiteral("max_blocks_sm")].toInt());
        QCOMPARE(cc.regs_per_sm, row[QStringLiteral("regs_per_sm")].toInt());
        QCOMPARE(cc.reg_alloc_unit, row[QStringLiteral("reg_alloc_unit")].toInt());
        QCOMPARE(cc.max_regs_thread, row[QStringLiteral("max_regs_thread")].toInt());
        QCOMPARE(cc.sub_partitions, row[QStringLiteral("sub_partitions")].toInt());
        QCOMPARE(cc.smem_per_sm_bytes, row[QStringLiteral("smem_per_sm_bytes")].toInt());
        QCOMPARE(cc.smem_alloc_unit, row[QStringLiteral("smem_alloc_unit")].toInt());
        QCOMPARE(cc.reserved_smem_per_block, row[QStringLiteral("reserved_smem_per_block")].toInt());
        QCOMPARE(cc.max_smem_block_bytes, row[QStringLiteral("max_smem_block_bytes")].toInt());
        QCOMPARE(cc.fp32_lanes_sm, row[QStringLiteral("fp32_lanes_sm")].toInt());
        QCOMPARE(cc.fp64_lanes_sm, row[QStringLiteral("fp64_lanes_sm")].toInt());
        QStringList carveouts;
        for (int kb : cc.smem_carveouts_kb)
            carveouts << QString::number(kb);
        QCOMPARE(carveouts.join(QLatin1Char('|')), row[QStringLiteral("smem_carveouts_kb")]);
        QCOMPARE(core::findComputeCapability(cc.name), &cc);
    }
}

void TestComputeCapability::bundledRowsMatchTheDataSet()
{
    // Every row of the project's data file (when the shared data is checked out beside) is bundled unchanged;
    // the bundled file adds only the rows of addedRowsHoldTheSourcedFacts and the FP64 column.
    const QString shared = QStringLiteral(CROSSROOF_SHARED_DIR "/data/occupancy/cc_limits.csv");
    if (!QFile::exists(shared))
        QSKIP("the shared data set is not checked out beside the source tree");
    const auto sharedRows = readCsv(shared);
    const auto bundledRows = readCsv(QStringLiteral(CROSSROOF_SOURCE_DIR "/core/occupancy/data/cc_limits.csv"));
    QVERIFY(!sharedRows.empty());
    std::map<QString, std::map<QString, QString>> bundled;
    for (const auto &row : bundledRows)
        bundled[row.at(QStringLiteral("cc"))] = row;
    for (const auto &row : sharedRows) {
        const QString cc = row.at(QStringLiteral("cc"));
        QVERIFY2(bundled.count(cc), qPrintable(cc));
        // The data set's columns, unchanged; the bundled file adds fp64_lanes_sm.
        std::map<QString, QString> same = bundled[cc];
        QVERIFY(same.erase(QStringLiteral("fp64_lanes_sm")) == 1 && !row.count(QStringLiteral("fp64_lanes_sm")));
        QCOMPARE(same, row);
        bundled.erase(cc);
    }
    QStringList added;
    for (const auto &[cc, row] : bundled)
        added << cc;
    QCOMPARE(added, QStringList({"10.0", "10.3", "12.0", "12.1", "5.2", "5.3", "6.1", "6.2", "7.2", "8.7"}));
}

void TestComputeCapability::addedRowsHoldTheSourcedFacts()
{
    // The rows added to the data set, fact by fact from the sources named in core/occupancy/data/README.md:
    // the programming guide's per-CC table, cuda_occupancy.h and helper_cuda.h.
    struct Expected
    {
        const char *name;
        int warps, threads, blocks, regs, regUnit, maxRegs, subPartitions, smemSm;
        std::vector<int> carveoutsKb;
        int smemUnit, reserved, smemBlock, fp32;
    };
    const std::vector<Expected> expected{
        {"5.2", 64, 2048, 32, 65536, 256, 255, 4, 98304, {96}, 256, 0, 49152, 128},
        {"5.3", 64, 2048, 32, 65536, 256, 255, 4, 65536, {64}, 256, 0, 49152, 128},
        {"6.1", 64, 2048, 32, 65536, 256, 255, 4, 98304, {96}, 256, 0, 49152, 128},
        {"6.2", 64, 2048, 32, 65536, 256, 255, 4, 65536, {64}, 256, 0, 49152, 128},
        {"7.2", 64, 2048, 32, 65536, 256, 255, 4, 98304, {0, 8, 16, 32, 64, 96}, 256, 0, 98304, 64},
        {"8.7", 48, 1536, 16, 65536, 256, 255, 4, 167936, {0, 8, 16, 32, 64, 100, 132, 164}, 128, 1024, 166912,
         128},
        {"10.0", 64, 2048, 32, 65536, 256, 255, 4, 233472, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 128, 1024,
         232448, 128},
        {"10.3", 64, 2048, 32, 65536, 256, 255, 4, 233472, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 128, 1024,
         232448, 128},
        {"12.0", 48, 1536, 24, 65536, 256, 255, 4, 102400, {0, 8, 16, 32, 64, 100}, 128, 1024, 101376, 128},
        {"12.1", 48, 1536, 24, 65536, 256, 255, 4, 102400, {0, 8, 16, 32, 64, 100}, 128, 1024, 101376, 128},
    };
    for (const Expected &e : expected) {
        const core::ComputeCapability *cc = core::findComputeCapability(e.name);
        QVERIFY2(cc, e.name);
        QCOMPARE(cc->max_warps_sm, e.warps);
        QCOMPARE(cc->max_threads_sm, e.threads);
        QCOMPARE(cc->max_blocks_sm, e.blocks);
        QCOMPARE(cc->regs_per_sm, e.regs);
        QCOMPARE(cc->reg_alloc_unit, e.regUnit);
        QCOMPARE(cc->max_regs_thread, e.maxRegs);
        QCOMPARE(cc->sub_partitions, e.subPartitions);
        QCOMPARE(cc->smem_per_sm_bytes, e.smemSm);
        QCOMPARE(cc->smem_carveouts_kb, e.carveoutsKb);
        QCOMPARE(cc->smem_alloc_unit, e.smemUnit);
        QCOMPARE(cc->reserved_smem_per_block, e.reserved);
        QCOMPARE(cc->max_smem_block_bytes, e.smemBlock);
        QCOMPARE(cc->fp32_lanes_sm, e.fp32);
    }
    // The table stays in ascending order with the new rows in place.
    QStringList names;
    for (const auto &cc : core::computeCapabilities())
        names << QString::fromStdString(cc.name);
    QCOMPARE(names.join(QLatin1Char(' ')),
             QStringLiteral("2.0 3.5 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7 8.9 9.0 10.0 10.3 12.0 12.1"));
}

void TestComputeCapability::unknownComputeCapabilityIsRejected()
{
    QVERIFY(!core::findComputeCapability("4.2"));
    for (const char *name : {"4.2", "", "8", "8.0 ", "sm_80"}) {
        try {
            core::computeCapability(name);
            QFAIL("an unknown compute capability must be rejected");
        } catch (const core::InputError &e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.contains(QStringLiteral("unknown compute capability '%1'").arg(QLatin1String(name))),
                     e.what());
            QVERIFY2(msg.contains(QLatin1String("known: 2.0, 3.5, 5.0, 5.2, 5.3, 6.0, 6.1, 6.2, 7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, "
                                                       "9.0, 10.0, 10.3, 12.0, 12.1)")),
                     e.what());
        }
    }
}

QTEST_APPLESS_MAIN(TestComputeCapability)
#include "tst_compute_capability.moc"
