// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/hardware_profile.h"
#include "core/profiles/profile_library.h"
#include "core/skeleton/core_model.h"
#include "core/support/error.h"

#include <QTest>

using namespace crossroof;

namespace {

/// A valid CPU profile with a core model; tests break one thing at a time.
const char *kValid = R"({
  "format_version": 1, "id": "test-cpu", "name": "Test CPU", "kind": "cpu",
  "parameters": {"sm_count": 4, "clock_ghz": 2, "warp_size": 1, "max_warps": 2, "request_bytes": 64,
                 "R": 50, "L": 200, "M": 4, "S_s": 32, "L_s": 4},
  "core_model": {
    "issue_width": 4,
    "pipelines": {"fp": 2, "load": 2, "store": 1, "int": 3},
    "latency": {"st": 1, "fp": 3, "fma": 4, "xp": 1},
    "vector_lanes": 8, "registers": 16,
    "memory": {"element_bytes": 4, "line_bytes": 64,
               "levels": [{"name": "L1", "latency": 5, "capacity_kib": 48}, {"name": "L2", "latency": 14, "capacity_kib": 2048},
                          {"name": "DRAM", "latency": 300}]}
  },
  "sources": [{"fields": ["sm_count", "clock_ghz", "warp_size", "max_warps", "request_bytes", "R", "L", "M",
                          "S_s", "L_s"], "text": "made up for a test"},
              {"fields": ["core_model"], "text": "made up too"}]
})";

QString replaced(const QString &from, const QString &to)
{
    QString text = QString::fromUtf8(kValid);
    Q_ASSERT(text.contains(from));
    return text.replace(from, to);
}

} // namespace

class TestCoreModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void validCoreModelParses();
    void profilesWithoutOneStillLoad();
    void badCoreModelsNameTheField_data();
    void badCoreModelsNameTheField();
    void roundTrips();
    void bundledCpusHaveCoreModels();
    void statementKindsMapToPipelines();
};

void TestCoreModel::validCoreModelParses()
{
    const core::HardwareProfile p = core::parseProfile(kValid, "cpu.json");
    QVERIFY(p.core_model);
    const core::CoreModel &m = *p.core_model;
    QCOMPARE(m.issue_width, 4);
    QCOMPARE(m.pipelines[std::size_t(core::PipelineKind::Int)], 3);
    QCOMPARE(m.latencyOf(core::StatementKind::Fma), 4.0);
    QCOMPARE(m.latencyOf(core::StatementKind::Fp), 3.0);
    QCOMPARE(m.latencyOf(core::StatementKind::Load), 5.0); // the L1 load-to-use latency
    QCOMPARE(m.vector_lanes, 8);
    QCOMPARE(m.registers, 16);
    QCOMPARE(m.memory.size(), std::size_t(3));
    QCOMPARE(m.memory[1].name, std::string("L2"));
    QCOMPARE(m.memory[2].capacity_kib, 0.0);
}

void TestCoreModel::profilesWithoutOneStillLoad()
{
    QString text = QString::fromUtf8(kValid);
    const auto from = text.indexOf(QLatin1String("\"core_model\": {"));
    const auto to = text.indexOf(QLatin1String("\"sources\""));
    text.remove(from, to - from);
    text.replace(QLatin1String(",\n              {\"fields\": [\"core_model\"], \"text\": \"made up too\"}"), QString());
    const core::HardwareProfile p = core::parseProfile(text.toStdString(), "cpu.json");
    QVERIFY(!p.core_model);
}

void TestCoreModel::badCoreModelsNameTheField_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("message");
    QTest::newRow("issue width") << "\"issue_width\": 4" << "\"issue_width\": 0"
                                 << "field 'core_model.issue_width'";
    QTest::newRow("pipeline count") << "\"fp\": 2, \"load\"" << "\"fp\": -1, \"load\""
                                    << "field 'core_model.pipelines.fp'";
    QTest::newRow("missing pipeline") << ", \"int\": 3" << "" << "field 'core_model.pipelines.int'";
    QTest::newRow("unknown pipeline") << "\"int\": 3" << "\"int\": 3, \"simd\": 1"
                                      << "field 'core_model.pipelines.simd': is not a core_model field";
    QTest::newRow("latency") << "\"fma\": 4" << "\"fma\": 0.5" << "field 'core_model.latency.fma'";
    QTest::newRow("latency text") << "\"fma\": 4" << "\"fma\": \"four\"" << "field 'core_model.latency.fma'";
    QTest::newRow("lanes") << "\"vector_lanes\": 8" << "\"vector_lanes\": 0" << "field 'core_model.vector_lanes'";
    QTest::newRow("registers") << "\"registers\": 16" << "\"registers\": 1e9" << "field 'core_model.registers'";
    QTest::newRow("no levels") << "\"levels\": [" << "\"levels\": [], \"x\": ["
                               << "field 'core_model.memory.x': is not a core_model field";
    QTest::newRow("latency falls") << "\"latency\": 14" << "\"latency\": 3"
                                   << "field 'core_model.memory.levels[1].latency': must not be below the level before it";
    QTest::newRow("capacity on memory") << "\"latency\": 300}" << "\"latency\": 300, \"capacity_kib\": 5}"
                                        << "field 'core_model.memory.levels[2].capacity_kib': must be 0 on the last level";
    QTest::newRow("cache without capacity") << ", \"capacity_kib\": 2048" << ""
                                            << "field 'core_model.memory.levels[1].capacity_kib': must be a capacity";
    QTest::newRow("shrinking cache") << "\"capacity_kib\": 2048" << "\"capacity_kib\": 40"
                                     << "field 'core_model.memory.levels[1].capacity_kib': must be larger";
    QTest::newRow("misspelt") << "\"registers\": 16" << "\"registers\": 16, \"regs\": 1"
                              << "field 'core_model.regs': is not a core_model field (misspelt?)";
    QTest::newRow("no source") << "\"fields\": [\"core_model\"]" << "\"fields\": []"
                               << "field 'sources': no source names 'core_model'";
    QTest::newRow("gpu") << "\"kind\": \"cpu\"" << "\"kind\": \"gpu\""
                         << "field 'core_model': is for CPU profiles only";
}

void TestCoreModel::badCoreModelsNameTheField()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, message);
    try {
        core::parseProfile(replaced(from, to).toStdString(), "cpu.json");
        QFAIL("the profile must be refused");
    } catch (const core::InputError &e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(QLatin1String("cpu.json: ")), e.what());
        QVERIFY2(what.contains(message), e.what());
    }
}

void TestCoreModel::roundTrips()
{
    const core::HardwareProfile p = core::parseProfile(kValid, "cpu.json");
    const core::HardwareProfile back = core::parseProfile(core::profileToText(p), "again.json");
    QVERIFY(back.core_model);
    QVERIFY(*back.core_model == *p.core_model);
}

void TestCoreModel::bundledCpusHaveCoreModels()
{
    for (const char *id : {"xeon-phi-7210", "epyc-9654"}) {
        const core::HardwareProfile *p = core::findBundledProfile(id);
        QVERIFY2(p && p->core_model, id);
        core::validate(*p->core_model);
        bool sourced = false;
        for (const core::ProfileSource &s : p->sources)
            sourced = sourced
                      || std::find(s.fields.begin(), s.fields.end(), "core_model") != s.fields.end();
        QVERIFY2(sourced, id);
    }
    // The KNL figures the projection relies on (the Optimization Reference Manual's latency table).
    const core::CoreModel &knl = *core::findBundledProfile("xeon-phi-7210")->core_model;
    QCOMPARE(knl.issue_width, 2);
    QCOMPARE(knl.pipelines[std::size_t(core::PipelineKind::Fp)], 2);
    QCOMPARE(knl.latencyOf(core::StatementKind::Fma), 6.0);
    QCOMPARE(knl.latencyOf(core::StatementKind::Load), 5.0);
    QCOMPARE(knl.vector_lanes, 16);
    // GPU profiles have none.
    QVERIFY(!core::findBundledProfile("v100")->core_model);
}

void TestCoreModel::statementKindsMapToPipelines()
{
    QCOMPARE(core::pipelineOf(core::StatementKind::Fma), core::PipelineKind::Fp);
    QCOMPARE(core::pipelineOf(core::StatementKind::Fp), core::PipelineKind::Fp);
    QCOMPARE(core::pipelineOf(core::StatementKind::Load), core::PipelineKind::Load);
    QCOMPARE(core::pipelineOf(core::StatementKind::Store), core::PipelineKind::Store);
    QCOMPARE(core::pipelineOf(core::StatementKind::Xp), core::PipelineKind::Int);
    core::CoreModel m;
    m.issue_width = 0;
    try {
        core::validate(m);
        QFAIL("issue width 0");
    } catch (const core::InputError &e) {
        QCOMPARE(QString::fromUtf8(e.what()),
                 QStringLiteral("core_model.issue_width: must be a whole number from 1 to 64 (got 0)"));
    }
}

QTEST_APPLESS_MAIN(TestCoreModel)
#include "tst_core_model.moc"
