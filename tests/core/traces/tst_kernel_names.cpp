// SPDX-License-Identifier: GPL-3.0-or-later
// The name a user knows a kernel by (core::baseKernelName()), on made-up and real demangled names.
#include "core/traces/ncu_csv.h"

#include <QTest>

#include <map>
#include <string>

using namespace crossroof;

class TestKernelNames : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void baseNames_data();
    void baseNames();
    void realBaseNames();
};

void TestKernelNames::baseNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("baseName");
    QTest::newRow("issue 45")
            << "void at::native::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<float>, "
               "std::array<char *, 3>>(int, T2, T3)"
            << "vectorized_elementwise_kernel";
    QTest::newRow("anonymous") << "void at::<unnamed>::k<float>(float *)"
                               << "k";
    QTest::newRow("anonymous namespace") << "void (anonymous namespace)::copy<1>(int)"
                                         << "copy";
    QTest::newRow("plain") << "sm90_xmma_gemm_bf16_tn"
                           << "sm90_xmma_gemm_bf16_tn";
    QTest::newRow("no return type") << "gemm(int, int)"
                                    << "gemm";
    QTest::newRow("mangled") << "_Z6kernelPf"
                             << "_Z6kernelPf";
    QTest::newRow("only a template") << "<lambda>"
                                     << "<lambda>";
    QTest::newRow("blank") << "  "
                           << "";
}

void TestKernelNames::baseNames()
{
    QFETCH(QString, name);
    QFETCH(QString, baseName);
    QCOMPARE(QString::fromStdString(core::baseKernelName(name.toStdString())), baseName);
}

void TestKernelNames::realBaseNames()
{
    // The names of real exports (PyTorch and cuBLAS kernels of the H100 SXM, the probe's xkernel): the name a
    // user knows the kernel by, whatever its template arguments (the randn kernel's run to 1,700 characters).
    const core::NcuReport torch
            = core::readNcuCsv(std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm/torch_raw.csv");
    std::map<std::string, std::string> byId;
    for (const core::NcuKernel &k : torch.kernels)
        byId[k.id] = core::baseKernelName(k.name);
    QCOMPARE(byId.size(), std::size_t(11));
    QVERIFY(torch.kernels.front().name.size() > 1000);
    for (const char *id : {"0", "3", "5", "8"})
        QCOMPARE(byId[id], std::string("distribution_elementwise_grid_stride_kernel"));
    for (const char *id : {"9", "11", "19", "21"})
        QCOMPARE(byId[id], std::string("vectorized_elementwise_kernel"));
    QCOMPARE(byId["12"], std::string("reduce_kernel"));
    QCOMPARE(byId["14"], std::string("vectorized_layer_norm_kernel"));
    QCOMPARE(byId["17"],
             std::string("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_"
                         "ffma_aligna4_alignc4_execute_kernel__5x_cublas"));
    for (const core::NcuKernel &k :
         core::readNcuCsv(std::string(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv")).kernels)
        QCOMPARE(core::baseKernelName(k.name), std::string("xkernel"));
}

QTEST_MAIN(TestKernelNames)
#include "tst_kernel_names.moc"
