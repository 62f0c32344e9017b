// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-probe: measures one CUDA GPU the X-model's way and writes, into --out DIR,
//   device.csv   key,value facts from the CUDA runtime (SMs, clock, limits)
//   latency.csv  pointer-chase latencies (L1, L2, DRAM) and the dependent-FMA latency (load "fma")
//   stream.csv   f(k): read throughput with one 128-byte request in flight per warp, k = 1 .. max warps per SM
//   parallel.csv read throughput with 4-, 8- or 16-byte loads per thread and 1, 2, 4 or 8 requests in flight
//                per warp, over a DRAM footprint and an L2-resident one
//   family.csv   the X-model's kernel family: n warps per SM x (FMAs per request, E independent chains)
// for `crossroof-cli calibrate --probe DIR`. Progress goes to stderr. See README.md, "Measure your own GPU".

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

void check(cudaError_t status, const char *what)
{
    if (status != cudaSuccess) {
        std::fprintf(stderr, "crossroof-probe: %s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

/// Warp-instructions of the family's loop besides the FMAs (address arithmetic, load, compare, branch), per
/// request, with one chain; each further chain adds 2 (its seed add and its part of the final sum). Nsight
/// Compute counted (smsp__inst_executed.sum / l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum, minus the FMAs)
/// 17.75 + 2 (E - 1) for up to 16 FMAs per request and 18.5 to 20 + 2 (E - 1) for more, where the compiler
/// unrolls otherwise, for this file built by nvcc 13.0 for sm_90 and run on an H200; 19 is within 1.25 of
/// every variant. --loop-instructions changes it.
int gLoopInstructions = 19;

// ---------------------------------------------------------------------------------------------------------
// Latency: one thread chases a random cyclic permutation of 128-byte lines.

__global__ void buildChase(unsigned *data, const unsigned *nextLine, std::size_t lines)
{
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (i < lines)
        data[i * 32] = nextLine[i] * 32u;
}

template <bool kBypassL1>
__global__ void chase(const unsigned *data, int hops, unsigned start, long long *cycles, unsigned *sink)
{
    unsigned p = start;
    // Warm-up lap over the same hops, so that the timed lap finds the caches as a steady chase leaves them.
    for (int i = 0; i < hops; ++i)
        p = kBypassL1 ? __ldcg(data + p) : data[p];
    const long long t0 = clock64();
    for (int i = 0; i < hops; ++i)
        p = kBypassL1 ? __ldcg(data + p) : data[p];
    const long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = p;
}

/// Cycles between two dependent FMAs of one warp: a chain of 4096 (unrolled by 64).
__global__ void fmaChain(float a, float b, int count, long long *cycles, float *sink)
{
    float x = a;
    const long long t0 = clock64();
    for (int i = 0; i < count; i += 64) {
#pragma unroll
        for (int j = 0; j < 64; ++j)
            x = fmaf(x, a, b);
    }
    const long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = x;
}

// ---------------------------------------------------------------------------------------------------------
// Stream and family: every thread loads one 4-byte word per iteration (one coalesced 128-byte request per
// warp), and the next address depends on the loaded value (through MASK = 0, which the compiler cannot know),
// so each warp has exactly one request in flight. In the family, FMA_PER_REQUEST FMAs in E independent
// chains follow each load and the next address depends on their result too.

template <int kFma, int kChains>
__global__ void family(const unsigned *data, std::size_t words, std::size_t step, int iters, unsigned mask,
                       float a, float b, unsigned *sink)
{
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    std::size_t line = std::size_t(warp) * 32;
    float acc[kChains > 0 ? kChains : 1];
#pragma unroll
    for (int c = 0; c < (kChains > 0 ? kChains : 1); ++c)
        acc[c] = float(c);
    unsigned dependence = 0;
    for (int i = 0; i < iters; ++i) {
        const unsigned v = __ldcg(data + line + lane);
        if constexpr (kFma > 0) {
            const float seed = __uint_as_float(v & mask);
#pragma unroll
            for (int c = 0; c < kChains; ++c)
                acc[c] += seed;
#pragma unroll
            for (int f = 0; f < kFma / kChains; ++f) {
#pragma unroll
                for (int c = 0; c < kChains; ++c)
                    acc[c] = fmaf(acc[c], a, b);
            }
            float sum = 0;
#pragma unroll
            for (int c = 0; c < kChains; ++c)
                sum += acc[c];
            dependence = __float_as_uint(sum) & mask;
        } else {
            dependence = v & mask;
        }
        line += step + dependence;
        if (line >= words)
            line -= words;
    }
    if (dependence == 1u)
        *sink = unsigned(acc[0]);
}

// ---------------------------------------------------------------------------------------------------------
// Parallel reads: every thread loads one T (4, 8 or 16 bytes: a warp request of 128, 256 or 512 bytes) from
// each of kInFlight independent chains per iteration. The chain's next address depends on the value it loaded
// (through MASK = 0, as in the family), so each warp has exactly kInFlight requests in flight. WORDS counts
// 4-byte words of the footprint; the chains of all warps start on distinct requests and move on together past
// all of them (STEP, every warp's 32 words, times the chains), wrapping at the footprint. Loads bypass L1.

__device__ unsigned fold(unsigned v)
{
    return v;
}

__device__ unsigned fold(uint2 v)
{
    return v.x ^ v.y;
}

__device__ unsigned fold(uint4 v)
{
    return v.x ^ v.y ^ v.z ^ v.w;
}

template <typename T, int kInFlight>
__global__ void parallelRead(const unsigned *data, std::size_t words, std::size_t step, int iters, unsigned mask,
                             float, float, unsigned *sink)
{
    const T *elements = reinterpret_cast<const T *>(data);
    // 32-bit offsets (the footprint is at most 2 GiB): fewer registers, so that more warps fit on an SM.
    const unsigned count = unsigned(words / (sizeof(T) / sizeof(unsigned)) / 32 * 32);
    const unsigned stride = unsigned(step * kInFlight % count);
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    unsigned at[kInFlight];
    unsigned dependence[kInFlight];
#pragma unroll
    for (int c = 0; c < kInFlight; ++c) {
        at[c] = unsigned((std::size_t(warp) * kInFlight + c) * 32 % count);
        dependence[c] = 0;
    }
    for (int i = 0; i < iters; ++i) {
        T v[kInFlight];
#pragma unroll
        for (int c = 0; c < kInFlight; ++c)
            v[c] = __ldcg(elements + at[c] + lane);
#pragma unroll
        for (int c = 0; c < kInFlight; ++c) {
            dependence[c] = fold(v[c]) & mask;
            at[c] += stride + dependence[c];
            if (at[c] >= count)
                at[c] -= count;
        }
    }
    unsigned any = 0;
#pragma unroll
    for (int c = 0; c < kInFlight; ++c)
        any |= dependence[c];
    if (any == 1u)
        *sink = any;
}

struct Device
{
    cudaDeviceProp prop{};
    int clockKhz = 0;
    int memClockKhz = 0;
    int busWidth = 0;
    int maxWarps = 0;
};

struct Timing
{
    double ms = 0;
    int iters = 0;
};

using Launch = void (*)(const unsigned *, std::size_t, std::size_t, int, unsigned, float, float, unsigned *);

/// Warps per block that put N warps on every SM: 2 (1 for odd N) as long as the SM accepts that many blocks,
/// else more.
int blockWarps(const Device &dev, int n)
{
    int warps = n % 2 ? 1 : 2;
    while (n / warps > dev.prop.maxBlocksPerMultiProcessor || (n % warps) != 0)
        ++warps;
    return warps;
}

/// Launches KERNEL with every SM holding N warps, in blocks of blockWarps() warps; ITERS is chosen so that a
/// launch takes about 6 ms; median of 5 launches after a warm-up. With PROFILED, one more launch of the same
/// size between cudaProfilerStart() and cudaProfilerStop(), untimed: `ncu --profile-from-start off` then
/// profiles that one launch of each configuration (without a profiler both calls do nothing).
Timing timeKernel(const Device &dev, Launch kernel, int n, const unsigned *data, std::size_t words,
                  unsigned *sink, int *gridOut, int *blockOut, bool profiled = false)
{
    const int warpsPerBlock = blockWarps(dev, n);
    const int block = 32 * warpsPerBlock;
    const int grid = dev.prop.multiProcessorCount * (n / warpsPerBlock);
    const std::size_t totalWarps = std::size_t(grid) * warpsPerBlock;
    const std::size_t step = totalWarps * 32; // every warp moves on past all the others' lines
    *gridOut = grid;
    *blockOut = block;

    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    const auto timed = [&](int iters) {
        check(cudaEventRecord(start), "cudaEventRecord");
        kernel<<<grid, block>>>(data, words, step, iters, 0u, 0.999f, 0.001f, sink);
        check(cudaGetLastError(), "kernel launch");
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "kernel");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        return double(ms);
    };
    // Size the launch to about 6 ms (at least 16, at most 2^22 iterations): the first launch of a kernel loads
    // its module (CUDA's lazy loading) and is not timed; 64 iterations give a first size, and a launch of that
    // size (the warm-up) a second where launch overhead made the first one short.
    const auto sized = [](int at, double ms) {
        return int(std::clamp(at * 6.0 / std::max(ms, 1e-3), 16.0, double(1 << 22)));
    };
    timed(16);
    int iters = sized(64, timed(64));
    const double warmMs = timed(iters);
    if (warmMs < 3.0 || warmMs > 12.0) {
        iters = sized(iters, warmMs);
        timed(iters);
    }
    std::vector<double> times;
    for (int r = 0; r < 5; ++r)
        times.push_back(timed(iters));
    std::sort(times.begin(), times.end());
    if (profiled) {
        check(cudaProfilerStart(), "cudaProfilerStart");
        timed(iters);
        check(cudaProfilerStop(), "cudaProfilerStop");
    }
    check(cudaEventDestroy(start), "cudaEventDestroy");
    check(cudaEventDestroy(stop), "cudaEventDestroy");
    return {times[2], iters};
}

FILE *openOut(const std::string &dir, const char *name)
{
    const std::string path = dir + "/" + name;
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "crossroof-probe: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        std::exit(1);
    }
    return f;
}

void closeOut(FILE *f, const std::string &dir, const char *name)
{
    if (std::fclose(f) != 0) {
        std::fprintf(stderr, "crossroof-probe: cannot write %s/%s\n", dir.c_str(), name);
        std::exit(1);
    }
}

void writeDevice(const Device &dev, const std::string &dir)
{
    FILE *f = openOut(dir, "device.csv");
    const cudaDeviceProp &p = dev.prop;
    std::fprintf(f, "name,%s\ncc,%d.%d\nsms,%d\nclock_khz,%d\nmem_clock_khz,%d\nbus_width_bits,%d\n", p.name,
                 p.major, p.minor, p.multiProcessorCount, dev.clockKhz, dev.memClockKhz, dev.busWidth);
    std::fprintf(f, "l2_bytes,%d\nsmem_per_sm,%zu\nsmem_per_block_optin,%zu\nregs_per_sm,%d\n", p.l2CacheSize,
                 p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin, p.regsPerMultiprocessor);
    std::fprintf(f, "max_threads_sm,%d\nmax_blocks_sm,%d\nglobal_mem,%zu\n", p.maxThreadsPerMultiProcessor,
                 p.maxBlocksPerMultiProcessor, p.totalGlobalMem);
    closeOut(f, dir, "device.csv");
}

void measureLatency(const std::string &dir)
{
    FILE *f = openOut(dir, "latency.csv");
    std::fprintf(f, "footprint_bytes,stride_bytes,load,hops,cycles_per_hop\n");
    const std::size_t largest = std::size_t(1) << 30;
    const std::size_t freeBytes = [] {
        std::size_t free = 0, total = 0;
        check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
        return free;
    }();
    const std::size_t maxFootprint = std::min(largest, freeBytes / 4);
    unsigned *data = nullptr, *next = nullptr, *sink = nullptr;
    long long *cycles = nullptr;
    check(cudaMalloc(&data, maxFootprint), "cudaMalloc (latency)");
    check(cudaMalloc(&next, maxFootprint / 128 * sizeof(unsigned)), "cudaMalloc (latency)");
    check(cudaMalloc(&sink, sizeof(unsigned)), "cudaMalloc");
    check(cudaMalloc(&cycles, sizeof(long long)), "cudaMalloc");
    std::mt19937_64 random(12);
    const int hops = 20000;
    for (std::size_t footprint = 8192; footprint <= maxFootprint; footprint *= 8) {
        const std::size_t lines = footprint / 128;
        // Sattolo's algorithm: a random permutation with a single cycle through every line.
        std::vector<unsigned> perm(lines);
        std::iota(perm.begin(), perm.end(), 0u);
        for (std::size_t i = lines - 1; i > 0; --i)
            std::swap(perm[i], perm[std::uniform_int_distribution<std::size_t>(0, i - 1)(random)]);
        check(cudaMemcpy(next, perm.data(), lines * sizeof(unsigned), cudaMemcpyHostToDevice), "cudaMemcpy");
        buildChase<<<unsigned((lines + 255) / 256), 256>>>(data, next, lines);
        check(cudaDeviceSynchronize(), "building the chase");
        // The ld chase starts where the ld.cg chase (warm-up and timed lap) ended, so that it does not find the
        // lines the ld.cg chase left in L2.
        unsigned after = 0;
        for (int i = 0; i < 2 * hops; ++i)
            after = perm[after];
        for (const bool bypass : {true, false}) {
            if (bypass)
                chase<true><<<1, 1>>>(data, hops, 0u, cycles, sink);
            else
                chase<false><<<1, 1>>>(data, hops, after * 32u, cycles, sink);
            check(cudaDeviceSynchronize(), "pointer chase");
            long long c = 0;
            check(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost), "cudaMemcpy");
            std::fprintf(f, "%zu,128,%s,%d,%.1f\n", footprint, bypass ? "ld.cg" : "ld", hops, double(c) / hops);
            std::fprintf(stderr, "  latency %10zu B %-5s %7.1f cycles\n", footprint, bypass ? "ld.cg" : "ld",
                         double(c) / hops);
        }
        if (footprint * 8 > maxFootprint && footprint < maxFootprint)
            footprint = maxFootprint / 8; // the last step lands on the largest footprint
    }
    // Dependent-issue latency: one warp, one chain of dependent FMAs.
    float *fsink = nullptr;
    check(cudaMalloc(&fsink, sizeof(float)), "cudaMalloc");
    const int chain = 4096;
    fmaChain<<<1, 32>>>(0.999f, 0.001f, chain, cycles, fsink); // warm-up (instruction cache)
    fmaChain<<<1, 32>>>(0.999f, 0.001f, chain, cycles, fsink);
    check(cudaDeviceSynchronize(), "FMA chain");
    long long c = 0;
    check(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::fprintf(f, "0,0,fma,%d,%.2f\n", chain, double(c) / chain);
    std::fprintf(stderr, "  dependent FMA          %7.2f cycles\n", double(c) / chain);
    check(cudaFree(fsink), "cudaFree");
    check(cudaFree(data), "cudaFree");
    check(cudaFree(next), "cudaFree");
    check(cudaFree(sink), "cudaFree");
    check(cudaFree(cycles), "cudaFree");
    closeOut(f, dir, "latency.csv");
}

/// stream.csv: f(k), the family's loop without FMAs, at k = 1 .. the SM's warp slots.
void measureStream(const Device &dev, const std::string &dir, const unsigned *data, std::size_t words,
                   unsigned *sink)
{
    FILE *stream = openOut(dir, "stream.csv");
    std::fprintf(stream, "warps_per_sm,grid,block,iters,ms,read_gbs\n");
    for (int k = 1; k <= dev.maxWarps; k += k < 32 ? 1 : 2) {
        int grid = 0, block = 0;
        const Timing t = timeKernel(dev, family<0, 0>, k, data, words, sink, &grid, &block);
        const double requests = double(grid) * (block / 32) * t.iters;
        const double gbs = requests * 128 / (t.ms * 1e-3) / 1e9;
        std::fprintf(stream, "%d,%d,%d,%d,%.4f,%.2f\n", k, grid, block, t.iters, t.ms, gbs);
        std::fprintf(stderr, "  k = %2d  %8.2f GB/s\n", k, gbs);
    }
    closeOut(stream, dir, "stream.csv");
}

struct ParallelVariant
{
    int bytes; ///< per thread and load
    int inFlight; ///< requests in flight per warp
    Launch kernel;
};

template <typename T, int kInFlight>
constexpr ParallelVariant parallelVariant()
{
    return {int(sizeof(T)), kInFlight, parallelRead<T, kInFlight>};
}

/// parallel.csv: the parallel reads over DATA's first DRAM_WORDS words (far beyond L2) and over its first
/// quarter of the L2, at several warps per SM. A warp count that the kernel's registers do not leave room for
/// on an SM is left out (with a note), so that every row ran with the warps it names.
void measureParallel(const Device &dev, const std::string &dir, const unsigned *data, std::size_t dramWords,
                     unsigned *sink)
{
    const ParallelVariant variants[] = {
            parallelVariant<unsigned, 1>(), parallelVariant<unsigned, 2>(), parallelVariant<unsigned, 4>(),
            parallelVariant<unsigned, 8>(), parallelVariant<uint2, 1>(),    parallelVariant<uint2, 2>(),
            parallelVariant<uint2, 4>(),    parallelVariant<uint2, 8>(),    parallelVariant<uint4, 1>(),
            parallelVariant<uint4, 2>(),    parallelVariant<uint4, 4>(),    parallelVariant<uint4, 8>()};
    const int warps[] = {1, 2, 4, 8, 16, 32, 48, 64};
    const std::size_t l2Footprint = std::size_t(std::max(dev.prop.l2CacheSize, 0)) / 4 / 4096 * 4096;
    struct Level
    {
        const char *name;
        std::size_t words;
    };
    const Level levels[] = {{"dram", dramWords}, {"l2", l2Footprint / sizeof(unsigned)}};
    FILE *f = openOut(dir, "parallel.csv");
    std::fprintf(f, "level,bytes_per_thread,loads_in_flight,warps_per_sm,footprint_bytes,grid,block,iters,ms,"
                    "read_gbs\n");
    for (const Level &level : levels) {
        if (level.words == 0) {
            std::fprintf(stderr, "  no L2 size reported: no L2-resident rows\n");
            continue;
        }
        for (const ParallelVariant &v : variants) {
            double best = 0;
            for (const int n : warps) {
                if (n > dev.maxWarps)
                    continue;
                const int perBlock = blockWarps(dev, n);
                int blocks = 0;
                check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, v.kernel, 32 * perBlock, 0),
                      "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
                if (blocks * perBlock < n) {
                    cudaFuncAttributes attr{};
                    check(cudaFuncGetAttributes(&attr, v.kernel), "cudaFuncGetAttributes");
                    std::fprintf(stderr,
                                 "  %-4s %2d B x %d: %d registers per thread leave room for %d warps per SM, "
                                 "not %d: left out\n",
                                 level.name, v.bytes, v.inFlight, attr.numRegs, blocks * perBlock, n);
                    break;
                }
                int grid = 0, block = 0;
                const Timing t = timeKernel(dev, v.kernel, n, data, level.words, sink, &grid, &block);
                const double requests = double(grid) * (block / 32) * t.iters * v.inFlight;
                const double gbs = requests * 32.0 * v.bytes / (t.ms * 1e-3) / 1e9;
                best = std::max(best, gbs);
                std::fprintf(f, "%s,%d,%d,%d,%zu,%d,%d,%d,%.4f,%.2f\n", level.name, v.bytes, v.inFlight, n,
                             level.words * sizeof(unsigned), grid, block, t.iters, t.ms, gbs);
            }
            std::fprintf(stderr, "  %-4s %2d B per thread, %d in flight per warp: up to %8.2f GB/s\n",
                         level.name, v.bytes, v.inFlight, best);
        }
    }
    closeOut(f, dir, "parallel.csv");
}

struct Variant
{
    int fma;
    int chains;
    Launch kernel;
};

template <int kFma, int kChains>
constexpr Variant variant()
{
    return {kFma, kChains, family<kFma, kChains>};
}

/// One configuration of the family: N warps per SM, FMA FMAs per request in CHAINS chains.
struct FamilyMember
{
    int n;
    int fma;
    int chains;
};

/// Parses --family-only's "n:fma:E[,n:fma:E...]"; an empty result means a malformed list.
std::vector<FamilyMember> parseFamilyMembers(const std::string &text)
{
    std::vector<FamilyMember> members;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        FamilyMember m{};
        char tail = 0;
        if (std::sscanf(text.substr(at, comma - at).c_str(), "%d:%d:%d%c", &m.n, &m.fma, &m.chains, &tail) != 3)
            return {};
        members.push_back(m);
        at = comma + 1;
    }
    return members;
}

} // namespace

int main(int argc, char **argv)
{
    std::string dir;
    int deviceIndex = 0;
    std::string familyOnly;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--out" && i + 1 < argc) {
            dir = argv[++i];
        } else if (a == "--device" && i + 1 < argc) {
            deviceIndex = std::atoi(argv[++i]);
        } else if (a == "--family-only" && i + 1 < argc) {
            familyOnly = argv[++i];
        } else if (a == "--loop-instructions" && i + 1 < argc) {
            gLoopInstructions = std::atoi(argv[++i]);
        } else if (a == "--help" || a == "-h") {
            std::printf("Usage: crossroof-probe --out DIR [--device N] [--loop-instructions K]\n"
                        "                      [--family-only n:fma:E[,n:fma:E...]]\n\n"
                        "Measures a CUDA GPU for the X-model (under a minute) and writes device.csv,\n"
                        "latency.csv, stream.csv, parallel.csv and family.csv into DIR; then run\n"
                        "  crossroof-cli calibrate --probe DIR --out my-gpu.json\n\n"
                        "  --device N              the CUDA device (default 0)\n"
                        "  --loop-instructions K   warp-instructions of the family's loop besides its FMAs,\n"
                        "                          per request with one chain (default 19, within 1.25 of what\n"
                        "                          Nsight Compute counts on sm_90); Z = FMAs per request + K\n"
                        "                          + 2 per further chain\n"
                        "  --family-only LIST      measure only these members of the kernel family (warps\n"
                        "                          per SM : FMAs per request : chains) into family.csv, and\n"
                        "                          nothing else. Each configuration runs once more between\n"
                        "                          cudaProfilerStart and cudaProfilerStop, so that\n"
                        "                            ncu --profile-from-start off --csv --page raw \\\n"
                        "                              crossroof-probe --family-only 8:16:1,64:4:1 --out d\n"
                        "                          profiles one launch of each\n");
            return 0;
        } else {
            std::fprintf(stderr, "crossroof-probe: unknown argument '%s' (try --help)\n", a.c_str());
            return 2;
        }
    }
    if (dir.empty()) {
        std::fprintf(stderr, "crossroof-probe: --out DIR is required (try --help)\n");
        return 2;
    }
    if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
        std::fprintf(stderr, "crossroof-probe: cannot create %s: %s\n", dir.c_str(), std::strerror(errno));
        return 1;
    }
    const auto began = std::chrono::steady_clock::now();

    Device dev;
    check(cudaSetDevice(deviceIndex), "cudaSetDevice");
    check(cudaGetDeviceProperties(&dev.prop, deviceIndex), "cudaGetDeviceProperties");
    check(cudaDeviceGetAttribute(&dev.clockKhz, cudaDevAttrClockRate, deviceIndex), "clock rate");
    check(cudaDeviceGetAttribute(&dev.memClockKhz, cudaDevAttrMemoryClockRate, deviceIndex), "memory clock");
    check(cudaDeviceGetAttribute(&dev.busWidth, cudaDevAttrGlobalMemoryBusWidth, deviceIndex), "bus width");
    dev.maxWarps = dev.prop.maxThreadsPerMultiProcessor / 32;
    std::fprintf(stderr, "crossroof-probe: %s, CC %d.%d, %d SMs, %d warps per SM\n", dev.prop.name, dev.prop.major,
                 dev.prop.minor, dev.prop.multiProcessorCount, dev.maxWarps);
    writeDevice(dev, dir);

    std::vector<FamilyMember> only;
    if (!familyOnly.empty()) {
        only = parseFamilyMembers(familyOnly);
        if (only.empty()) {
            std::fprintf(stderr, "crossroof-probe: --family-only takes n:fma:E[,n:fma:E...], got '%s'\n",
                         familyOnly.c_str());
            return 2;
        }
    } else {
        std::fprintf(stderr, "[1/4] latencies\n");
        measureLatency(dir);
    }

    // 2 GiB of zeros (or a quarter of the free memory), far beyond any L2.
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    const std::size_t bytes = std::min(std::size_t(2) << 30, free / 4) / 4096 * 4096;
    const std::size_t words = bytes / sizeof(unsigned);
    unsigned *data = nullptr, *sink = nullptr;
    check(cudaMalloc(&data, bytes), "cudaMalloc (2 GiB)");
    check(cudaMemset(data, 0, bytes), "cudaMemset");
    check(cudaMalloc(&sink, sizeof(unsigned)), "cudaMalloc");

    if (only.empty()) {
        std::fprintf(stderr, "[2/4] stream f(k)\n");
        measureStream(dev, dir, data, words, sink);
        std::fprintf(stderr, "[3/4] parallel reads\n");
        measureParallel(dev, dir, data, words, sink);
    }

    std::fprintf(stderr, "[4/4] kernel family\n");
    const Variant variants[] = {
            variant<1, 1>(),   variant<2, 1>(),   variant<2, 2>(),   variant<4, 1>(),   variant<4, 2>(),
            variant<4, 4>(),   variant<8, 1>(),   variant<8, 2>(),   variant<8, 4>(),   variant<16, 1>(),
            variant<16, 2>(),  variant<16, 4>(),  variant<32, 1>(),  variant<32, 2>(),  variant<32, 4>(),
            variant<64, 1>(),  variant<64, 2>(),  variant<64, 4>(),  variant<128, 1>(), variant<128, 2>(),
            variant<128, 4>(), variant<256, 1>(), variant<256, 2>(), variant<256, 4>()};
    const int warps[] = {1, 2, 4, 6, 8, 12, 16, 24, 32, 40, 48, 56, 64};
    FILE *fam = openOut(dir, "family.csv");
    std::fprintf(fam, "n,fma_per_request,Z,E,grid,block,iters,ms,gbs,inst_gops\n");
    for (const FamilyMember &m : only) {
        const bool known = std::any_of(std::begin(variants), std::end(variants),
                                       [&](const Variant &v) { return v.fma == m.fma && v.chains == m.chains; });
        const bool measured = std::find(std::begin(warps), std::end(warps), m.n) != std::end(warps);
        if (!known || !measured || m.n > dev.maxWarps) {
            std::fprintf(stderr,
                         "crossroof-probe: --family-only %d:%d:%d is not a member of the family (n of 1, 2, 4, "
                         "6, 8, 12, 16, 24 ... 64 up to %d; FMAs 1, 2, 4 ... 256 in 1, 2 or 4 chains, no more "
                         "chains than FMAs)\n",
                         m.n, m.fma, m.chains, dev.maxWarps);
            return 2;
        }
    }
    for (const Variant &v : variants) {
        const int Z = v.fma + gLoopInstructions + 2 * (v.chains - 1);
        int rows = 0;
        for (const int n : warps) {
            if (n > dev.maxWarps)
                continue;
            if (!only.empty() && std::none_of(only.begin(), only.end(), [&](const FamilyMember &m) {
                    return m.n == n && m.fma == v.fma && m.chains == v.chains;
                }))
                continue;
            int grid = 0, block = 0;
            const Timing t = timeKernel(dev, v.kernel, n, data, words, sink, &grid, &block, true);
            const double requests = double(grid) * (block / 32) * t.iters;
            const double gbs = requests * 128 / (t.ms * 1e-3) / 1e9;
            const double gops = requests * Z * 32 / (t.ms * 1e-3) / 1e9;
            std::fprintf(fam, "%d,%d,%d,%d,%d,%d,%d,%.4f,%.2f,%.2f\n", n, v.fma, Z, v.chains, grid, block, t.iters,
                         t.ms, gbs, gops);
            ++rows;
        }
        if (rows > 0)
            std::fprintf(stderr, "  FMAs per request %3d, E = %d: %d rows\n", v.fma, v.chains, rows);
    }
    closeOut(fam, dir, "family.csv");
    check(cudaFree(data), "cudaFree");
    check(cudaFree(sink), "cudaFree");
    const double seconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    std::fprintf(stderr, "crossroof-probe: wrote %s/{%s}.csv in %.0f s\n", dir.c_str(),
                 only.empty() ? "device,latency,stream,parallel,family" : "device,family", seconds);
    return 0;
}
