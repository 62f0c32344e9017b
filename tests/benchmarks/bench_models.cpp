// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-bench's core-only sections: stability maps and hysteresis, the importers and fits, the JSON reader
// on hostile profiles, skeleton projection, the Markov solvers and the model tree.
#include "bench_support.h"

#include "core/markov/markov.h"
#include "core/modeltree/cross_validation.h"
#include "core/profiles/profile_library.h"
#include "core/skeleton/projection.h"
#include "core/support/error.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/perf_stat.h"
#include "core/traces/trace_fit.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/stability_map.h"

#include <QFileInfo>
#include <QString>

namespace crossroof::bench {

// Stability maps of 256x256 cells and hysteresis sweeps of 256 values (core only).
int benchStability(Bench &b)
{
    ordered_json &out = b.out;
    const bool quick = b.quick;
    auto base = crossroof::core::findBundledProfile("gtx570-sp")->params;
    const crossroof::core::MapAxis x{"n", 1, 96, 256, false};
    const crossroof::core::MapAxis y{"Z", 0.5, 200, 256, true};
    std::vector<double> maps;
    for (int i = 0; i < (quick ? 2 : 15); ++i) {
        const auto t0 = Clock::now();
        const auto map = crossroof::core::computeStabilityMap(base, x, y, 2);
        maps.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        if (map.stable_count.empty())
            return 1;
    }
    out["stability_map_256x256_2_threads"] = summarize(maps);
    std::vector<double> sweeps;
    std::vector<double> values;
    for (int n = 1; n <= 256; ++n)
        values.push_back(n);
    for (int i = 0; i < (quick ? 5 : 100); ++i) {
        const auto t0 = Clock::now();
        const auto h = crossroof::core::sweepHysteresis(base, "n", values);
        sweeps.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        if (h.up_gbs.size() != values.size())
            return 1;
    }
    out["hysteresis_256_n"] = summarize(sweeps);
    return 0;
}

/// The importers and the fits on the shared measurements, and the JSON reader on hostile profiles.
int benchImport(Bench &b)
{
    ordered_json &out = b.out;
    const bool quick = b.quick;
    const std::string shared = CROSSROOF_SHARED_DIR;
    if (!QFileInfo::exists(QString::fromStdString(shared + "/data/perf-stat/perf_result.tsv"))) {
        out["import_skipped"] = "the measured data in " + shared + "/data are not there";
    } else {
        std::vector<double> perf, benches, fits;
        for (int i = 0; i < (quick ? 2 : 20); ++i) {
            auto t0 = Clock::now();
            const auto stat = crossroof::core::readPerfStat(shared + "/data/perf-stat/perf_result.tsv");
            perf.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            t0 = Clock::now();
            const auto set = crossroof::core::readGpuBenches(shared + "/data/gpu-benches");
            benches.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            const auto *trace = crossroof::core::findStreamTrace(set.tidy, "v100", "init");
            if (!trace)
                return 1;
            t0 = Clock::now();
            const auto fit = crossroof::core::fitRoofline(trace->warps_per_sm, trace->gbs);
            fits.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (!(fit.R_gbs > 0) || stat.records.empty())
                return 1;
        }
        out["import_perf_stat_700kb"] = summarize(perf);
        out["import_gpu_benches_set"] = summarize(benches);
        out["fit_roofline_trace"] = summarize(fits);
    }

    // Crossroof's JSON reader on a 1 MiB profile of 110,000 keys and one of 100,000 empty objects, each refused
    // once read (they are not profiles); it once took 20-32 s on each.
    std::string keys = R"({"format_version": 1, "id": "x", "name": "x", "kind": "gpu", "parameters": {)";
    std::string objects = R"({"format_version": 1, "id": "x", "name": "x", "kind": "gpu", "sources": [)";
    for (int i = 0; i < 110'000; ++i)
        keys += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
    for (int i = 0; i < 100'000; ++i)
        objects += i ? ",{}" : "{}";
    keys += "}}";
    objects += "]}";
    for (const auto &[name, text] : {std::pair {"read_profile_110k_keys", &keys},
                                     std::pair {"read_profile_100k_objects", &objects}}) {
        std::vector<double> reads;
        for (int i = 0; i < (quick ? 2 : 10); ++i) {
            const auto t0 = Clock::now();
            try {
                crossroof::core::parseProfile(*text, "bench.json");
                return 1; // accepted: the benchmark no longer measures what it says
            } catch (const crossroof::core::InputError &) {
            }
            reads.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        out[name] = summarize(reads);
    }
    return 0;
}

// A 200-statement skeleton parsed and re-projected for unroll factors 1..16 on the KNL core model, as the
// skeleton view does after each edit.
int benchSkeleton(Bench &b)
{
    ordered_json &out = b.out;
    const int rounds = b.rounds;
    std::string text = "def bench ()\n{\n  :n = 100000\n  forall i = 0:n\n  {\n";
    for (int i = 0; i < 200; ++i) {
        const std::string a = "a" + std::to_string(i / 10);
        const std::string prev = "t" + std::to_string(i >= 3 ? i - 3 : 0);
        if (i % 10 == 0)
            text += "    ld " + a + "\n";
        else if (i % 10 == 9)
            text += "    st t" + std::to_string(i - 1) + "\n";
        else if (i % 3 == 0)
            text += "    fma t" + std::to_string(i) + ": t" + std::to_string(i - 1) + ", " + a + ", c\n";
        else
            text += "    fp t" + std::to_string(i) + ": " + a + ", " + prev + "\n";
    }
    text += "  }\n}\n";
    const auto *knl = crossroof::core::findBundledProfile("xeon-phi-7210");
    if (!knl || !knl->core_model)
        return 1;
    std::vector<double> projections;
    for (int i = 0; i < rounds; ++i) {
        const auto t0 = Clock::now();
        const auto skeleton = crossroof::core::parseSkeleton(text, "bench.skel");
        const auto projection = crossroof::core::projectSkeleton(skeleton, *knl->core_model);
        projections.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        if (skeleton.body.size() != 200 || projection.unroll.size() != 16)
            return 1;
    }
    out["skeleton_project_200_x16"] = summarize(projections);
    return 0;
}
// The literal solver (dense chain, appendix A) against the exact product form.
int benchLiteral(Bench &b)
{
    for (int groups : {4, 8}) {
        const auto topo = crossroof::core::uniformTopology(groups, 2, 0.3, 0.6);
        const int repeats = groups == 4 ? 200 : 1;
        const auto l0 = Clock::now();
        for (int r = 0; r < repeats; ++r)
            crossroof::core::solveMarkov(topo, crossroof::core::MarkovSolver::Literal);
        const double literal = std::chrono::duration<double, std::milli>(Clock::now() - l0).count() / repeats;
        const auto e0 = Clock::now();
        for (int r = 0; r < 1000; ++r)
            crossroof::core::solveMarkovExact(topo);
        const double exact = std::chrono::duration<double, std::milli>(Clock::now() - e0).count() / 1000;
        b.out["markov_literal_vs_exact"][std::to_string(groups) + "x2"]
                = {{"literal_ms", literal}, {"exact_ms", exact}, {"ratio", literal / exact}};
    }
    return 0;
}

// Model tree: M5' training on 10,000 rows x 8 attributes (piecewise-linear truth with noise) and a 10-fold
// cross-validation (ten more trainings on 9,000 rows each).
int benchModelTree(Bench &b)
{
    ordered_json &out = b.out;
    const bool quick = b.quick;
    crossroof::core::RegressionData data;
    data.target = "y";
    const int rows = 10000;
    for (int a = 0; a < 8; ++a)
        data.attributes.push_back("a" + std::to_string(a));
    data.x.resize(rows, 8);
    data.y.resize(rows);
    unsigned seed = 12345;
    auto uniform = [&] {
        seed = 1103515245u * seed + 12345u;
        return double((seed >> 8) & 0xffff) / 65536.0;
    };
    for (int i = 0; i < rows; ++i) {
        for (int a = 0; a < 8; ++a)
            data.x(i, a) = a == 7 ? double(i % 7) : 10 * uniform();
        data.y[i] = (data.x(i, 0) > 5 ? 2 * data.x(i, 1) + data.x(i, 2) : 10 - data.x(i, 3))
                    + (data.x(i, 7) > 3 ? data.x(i, 4) : 0) + 0.1 * uniform();
    }
    std::vector<double> train, withCv;
    int leaves = 0;
    double mse = 0;
    for (int r = 0; r < (quick ? 1 : 5); ++r) {
        auto t0 = Clock::now();
        leaves = crossroof::core::ModelTree::train(data).leafCount();
        train.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        t0 = Clock::now();
        leaves = crossroof::core::ModelTree::train(data).leafCount();
        mse = crossroof::core::crossValidate(data, {}, 10).mse;
        withCv.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    out["modeltree_train_10000x8"] = summarize(train);
    out["modeltree_train_and_cv10_10000x8"] = summarize(withCv);
    out["modeltree_shape"] = {{"leaves", leaves}, {"cv_mse", mse}};
    return 0;
}
} // namespace crossroof::bench
