// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// gpu-benches' outputs besides gpu-stream and gpu-latency (gpu_benches.h), as their programs print them
// (te42kyfo/gpu-benches, RRZE-HPC/gpu-benches): gpu-cache and gpu-l2-cache (bandwidth against the data set),
// gpu-l2-stream (bandwidth against occupancy for each footprint), gpu-roofline (performance against
// arithmetic intensity) and gpu-strides (cycles per load against the access stride). Each parser throws
// InputError "SOURCE:LINE:COLUMN: problem" on a row it cannot read and "SOURCE: ..." when there are no rows.

#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// gpu-cache (`data set  exec time  spread  Eff. bw  DRAM read  DRAM write  L2 read  L2 store`, one row per
/// data-set size, after a `clock:` line) or gpu-l2-cache (rows `384 kB  768 kB  15ms  0.2%  2696.8 GB/s ...`:
/// each block's data set, then the total footprint): effective bandwidth against the footprint, the
/// hardware counters' DRAM and L2 traffic where the file has them (0 where not measured).
struct GpuCacheSweep
{
    std::string gpu;    ///< from the file name
    std::string source; ///< the file, for messages
    bool l2 = false;    ///< gpu-l2-cache output (a per-block and a total footprint per row)
    std::vector<double> footprint_kb; ///< the data set (gpu-cache) or total footprint (gpu-l2-cache), kB
    std::vector<double> block_kb;     ///< gpu-l2-cache: each block's data set (kB); empty for gpu-cache
    std::vector<double> gbs;          ///< effective bandwidth (GB/s)
    std::vector<std::vector<double>> counters_gbs; ///< per row, the counter columns (GB/s) that follow
    std::vector<int> lines;
};
GpuCacheSweep parseGpuCache(std::string_view text, const std::string &gpu, const std::string &source);
GpuCacheSweep readGpuCache(const std::string &path);

/// gpu-l2-stream: rows `blockSize blocksPerSM threads dataset(kB) occ% | GB/s: v...`, three values (min,
/// median, max) per kernel, blocks of rows per footprint. The file does not name its kernels. A last row
/// with fewer values than the others and no newline after it (a run stopped while writing it) is left out.
struct GpuL2Stream
{
    struct Row
    {
        double block = 0, blocks_per_sm = 0, threads = 0, footprint_kb = 0;
        std::vector<double> median_gbs; ///< per kernel
        int line = 0;
        double warpsPerSm() const { return block * blocks_per_sm / 32; }
    };
    std::string gpu, source;
    double sm_count = 0; ///< threads / (block * blocksPerSM) of the first row
    std::size_t kernels = 0;
    std::vector<Row> rows;
    int cut_off_line = 0; ///< the line of a last row cut off and left out; 0 where none
};
GpuL2Stream parseGpuL2Stream(std::string_view text, const std::string &gpu, const std::string &source);
GpuL2Stream readGpuL2Stream(const std::string &path);

/// gpu-roofline: rows `DEV BLOCKS blocks ITS its INTENSITY Fl/B BW GB/s PERF GF/s CLOCK Mhz POWER W TEMP°C`,
/// DEV the device index (a node's GPUs are measured together), after the program's optional list of builds.
struct GpuRoofline
{
    struct Device
    {
        int index = 0;
        std::vector<double> flops_per_byte, gbs, gflops, clock_mhz;
        std::vector<int> lines;
    };
    std::string gpu, source;
    std::vector<Device> devices; ///< in order of first appearance
    /// The ridge of DEVICE: the intensity where its DRAM-bound rate (the best GB/s times Fl/B) meets its best
    /// GF/s.
    static double ridge(const Device &device);
};
GpuRoofline parseGpuRoofline(std::string_view text, const std::string &gpu, const std::string &source);
GpuRoofline readGpuRoofline(const std::string &path);

/// gpu-strides: rows `TYPE KIND ARG ARG2 CYCLES B/CYCLE METRICS...` (TYPE float or double, KIND stride or
/// block), one series per TYPE and KIND, in the file's order.
struct GpuStrides
{
    struct Series
    {
        std::string name; ///< "float stride", "double block", ...
        std::vector<double> arg, cycles, bytes_per_cycle;
        std::vector<int> lines;
    };
    std::string gpu, source;
    std::vector<Series> series;
};
GpuStrides parseGpuStrides(std::string_view text, const std::string &gpu, const std::string &source);
GpuStrides readGpuStrides(const std::string &path);

} // namespace crossroof::core
