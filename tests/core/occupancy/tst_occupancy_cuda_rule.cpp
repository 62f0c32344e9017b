// SPDX-License-Identifier: GPL-3.0-or-later
#include "occupancy_fixtures.h"
#include "core/occupancy/compute_capability.h"
#include "core/support/error.h"
#include "core/occupancy/occupancy.h"

#include <QFile>
#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace crossroof;
using namespace crossroof::occupancy_test;
using core::Limiter;
using core::OccupancyInput;
using core::OccupancyMode;
using core::SweepVariable;

namespace {

/// One configuration of the CUDA rule with its expected result, worked out by hand from MODEL.md 2.1:
/// w = ceil(T/32); by warps = max_warps_sm / w; by registers ru = roundup(R*32, reg_alloc_unit), 0 if R is
/// above max_regs_thread or ru*roundup(w, sub_partitions) > regs_per_sm, else
/// ((regs_per_sm / sub_partitions) / ru) * sub_partitions / w; by shared memory 0 if S >
/// max_smem_block_bytes, else C / roundup(S + reserved, smem_alloc_unit), no limit if that size is 0. -1
/// below means "no limit".
struct Case
{
    const char *name;
    const char *cc;
    int threads;
    int regs;
    long long smem;
    long long config; ///< -1: the default, smem_per_sm_bytes
    int blocks;
    const char *limiters;
    int byWarps;
    int byBlocks;
    int byRegisters;
    int bySharedMemory;
    int warps; ///< resident warps B_a * w; occupancy = warps / max_warps_sm
};

const std::vector<Case> &cudaCases()
{
    static const std::vector<Case> cases{
        // CC 2.0: 48 warps, 8 blocks, 32768 registers on 2 sub-partitions (16384 each), unit 64, at most 63
        // per thread; 48 KiB shared memory (carveouts 16|48), unit 128, 48 KiB per block.
        //
        // w=16: warps 48/16=3; ru=512: 16384/512=32, *2=64, /16=4. -> 3 by warps, 48 warps.
        {"2.0 warp-limited", "2.0", 512, 16, 0, -1, 3, "warps", 3, 8, 4, -1, 48},
        // w=1: warps 48; registers 64/1=64; blocks 8. -> 8 by blocks.
        {"2.0 block-limited", "2.0", 32, 16, 0, -1, 8, "blocks", 48, 8, 64, -1, 8},
        // w=8: warps 6; ru=1024: 16384/1024=16, *2=32, /8=4. -> 4 by registers, 32 warps (2/3).
        {"2.0 register-limited", "2.0", 256, 32, 0, -1, 4, "registers", 6, 8, 4, -1, 32},
        // w=4: warps 12; ru=512: 64/4=16; smem roundup(20000,128)=20096: 49152/20096=2. -> 2 by smem.
        {"2.0 smem-limited", "2.0", 128, 16, 20000, -1, 2, "shared_memory", 12, 8, 16, 2, 8},
        // The 16 KiB carveout: 16384/20096=0.
        {"2.0 smem above the 16 KiB carveout", "2.0", 128, 16, 20000, 16384, 0, "shared_memory", 12, 8, 16, 0, 0},
        // 64 registers > 63 per thread: no block fits.
        {"2.0 too many registers per thread", "2.0", 128, 64, 0, -1, 0, "registers", 12, 8, 0, -1, 0},
        // w=32: ru=roundup(2016,64)=2048; 2048*roundup(32,2)=65536 > 32768: the register file is too small.
        {"2.0 register file too small", "2.0", 1024, 63, 0, -1, 0, "registers", 1, 8, 0, -1, 0},
        // 49153 > 49152 bytes per block.
        {"2.0 smem above the block maximum", "2.0", 128, 16, 49153, -1, 0, "shared_memory", 12, 8, 16, 0, 0},

        // CC 3.5: 64 warps, 16 blocks, 65536 registers on 4 sub-partitions (16384 each), unit 256, at most
        // 255; 48 KiB shared memory (carveouts 16|32|48), unit 256, 48 KiB per block.
        //
        // w=32: warps 2; ru=512: 16384/512=32, *4=128, /32=4. -> 2 by warps, 64 warps.
        {"3.5 warp-limited", "3.5", 1024, 16, 0, -1, 2, "warps", 2, 16, 4, -1, 64},
        // w=2: warps 32; registers 128/2=64; blocks 16. -> 16 by blocks, 32 warps.
        {"3.5 block-limited", "3.5", 64, 16, 0, -1, 16, "blocks", 32, 16, 64, -1, 32},
        // w=8: warps 8; ru=1280: 16384/1280=12, *4=48, /8=6. -> 6 by registers, 48 warps.
        {"3.5 register-limited", "3.5", 256, 40, 0, -1, 6, "registers", 8, 16, 6, -1, 48},
        // w=4: warps 16; ru=1024: 16*4/4=16; smem roundup(10000,256)=10240: 49152/10240=4. -> 4 by smem.
        {"3.5 smem-limited", "3.5", 128, 32, 10000, -1, 4, "shared_memory", 16, 16, 16, 4, 16},
        // The 16 KiB carveout: 16384/10240=1.
        {"3.5 smem, 16 KiB carveout", "3.5", 128, 32, 10000, 16384, 1, "shared_memory", 16, 16, 16, 1, 4},
        {"3.5 too many registers per thread", "3.5", 128, 256, 0, -1, 0, "registers", 16, 16, 0, -1, 0},
        // w=32: ru=roundup(8160,256)=8192; 8192*32=262144 > 65536.
        {"3.5 register file too small", "3.5", 1024, 255, 0, -1, 0, "registers", 2, 16, 0, -1, 0},
        {"3.5 smem above the block maximum", "3.5", 128, 32, 49153, -1, 0, "shared_memory", 16, 16, 16, 0, 0},

        // CC 5.0: 64 warps, 32 blocks, 65536 registers / 4, unit 256; 64 KiB per SM but 48 KiB per block.
        //
        // w=16: warps 4; ru=512: 128/16=8. -> 4 by warps.
        {"5.0 warp-limited", "5.0", 512, 16, 0, -1, 4, "warps", 4, 32, 8, -1, 64},
        // w=1: warps 64; ru=1024: 16384/1024=16, *4=64. -> 32 by blocks.
        {"5.0 block-limited", "5.0", 32, 32, 0, -1, 32, "blocks", 64, 32, 64, -1, 32},
        // w=4: warps 16; ru=2048: 16384/2048=8, *4=32, /4=8. -> 8 by registers.
        {"5.0 register-limited", "5.0", 128, 64, 0, -1, 8, "registers", 16, 32, 8, -1, 32},
        // w=2: warps 32; registers 64; smem roundup(6000,256)=6144: 65536/6144=10. -> 10 by smem, 20 warps.
        {"5.0 smem-limited", "5.0", 64, 16, 6000, -1, 10, "shared_memory", 32, 32, 64, 10, 20},
        // 49153 fits the SM's 64 KiB but not the 48 KiB per-block maximum.
        {"5.0 smem above the block maximum", "5.0", 64, 16, 49153, -1, 0, "shared_memory", 32, 32, 64, 0, 0},
        // w=16: warps 4; ru=1024: 64/16=4. Both attain B_a: both are reported.
        {"5.0 warps and registers tie", "5.0", 512, 32, 0, -1, 4, "warps,registers", 4, 32, 4, -1, 64},

        // CC 5.2: 64 warps, 32 blocks, 65536 registers / 4 sub-partitions (16384 each), unit 256, at most 255
        // per thread; 96 KiB shared memory (one configuration), unit 256, nothing reserved, 48 KiB per block.
        //
        // w=8: warps 64/8=8; ru=roundup(32*32,256)=1024: 16384/1024=16, *4=64, /8=8. -> 8 by warps and
        // registers, 64 warps (100 %).
        {"5.2 warp-limited", "5.2", 256, 32, 0, -1, 8, "warps,registers", 8, 32, 8, -1, 64},
        // w=1: warps 64; registers 16*4/1=64. -> 32 by blocks.
        {"5.2 block-limited", "5.2", 32, 32, 0, -1, 32, "blocks", 64, 32, 64, -1, 32},
        // w=8: ru=2048: 16384/2048=8, *4=32, /8=4. -> 4 by registers, 32 warps.
        {"5.2 register-limited", "5.2", 256, 64, 0, -1, 4, "registers", 8, 32, 4, -1, 32},
        // w=4: smem roundup(20000,256)=20224: 98304/20224=4. -> 4 by shared memory (5.0's 64 KiB gives 3).
        {"5.2 smem-limited", "5.2", 128, 32, 20000, -1, 4, "shared_memory", 16, 32, 16, 4, 16},
        {"5.2 smem above the block maximum", "5.2", 128, 32, 49153, -1, 0, "shared_memory", 16, 32, 16, 0, 0},

        // CC 5.3: as 5.2 but 64 KiB shared memory per SM.
        //
        // w=8: warps 8; ru=1024: 64/8=8. -> 8 by warps and registers.
        {"5.3 warp-limited", "5.3", 256, 32, 0, -1, 8, "warps,registers", 8, 32, 8, -1, 64},
        // w=2: warps 64/2=32; ru=512: 16384/512=32, *4=128, /2=64. -> 32 by warps and blocks.
        {"5.3 warp- and block-limited", "5.3", 64, 16, 0, -1, 32, "warps,blocks", 32, 32, 64, -1, 64},
        // w=16: warps 4; ru=1536: 16384/1536=10, *4=40, /16=2. -> 2 by registers, 32 warps.
        {"5.3 register-limited", "5.3", 512, 48, 0, -1, 2, "registers", 4, 32, 2, -1, 32},
        // w=8: smem roundup(20000,256)=20224: 65536/20224=3. -> 3 by shared memory, 24 warps.
        {"5.3 smem-limited", "5.3", 256, 32, 20000, -1, 3, "shared_memory", 8, 32, 8, 3, 24},
        // w=32: ru=4096; 4096*32=131072 > 65536: the block's registers do not fit.
        {"5.3 register file too small", "5.3", 1024, 128, 0, -1, 0, "registers", 2, 32, 0, -1, 0},

        // CC 6.0: 64 warps, 32 blocks, 65536 registers on only 2 sub-partitions (32768 each), unit 256;
        // 64 KiB per SM, 48 KiB per block.
        //
        // w=8: warps 8; ru=512: 32768/512=64, *2=128, /8=16. -> 8 by warps.
        {"6.0 warp-limited", "6.0", 256, 16, 0, -1, 8, "warps", 8, 32, 16, -1, 64},
        {"6.0 block-limited", "6.0", 32, 16, 0, -1, 32, "blocks", 64, 32, 128, -1, 32},
        // w=3: warps 21; ru=2304: 32768/2304=14, *2=28, /3=9. -> 9 by registers, 27 warps.
        {"6.0 register-limited", "6.0", 96, 72, 0, -1, 9, "registers", 21, 32, 9, -1, 27},
        // w=8: warps 8; registers 16; smem 65536/16384=4. -> 4 by smem.
        {"6.0 smem-limited", "6.0", 256, 16, 16384, -1, 4, "shared_memory", 8, 32, 16, 4, 32},
        // 65 registers is allowed per thread, but w=32 warps of ru=roundup(2080,256)=2304: 73728 > 65536.
        {"6.0 register file too small", "6.0", 1024, 65, 0, -1, 0, "registers", 2, 32, 0, -1, 0},
        // w=15: ru=4352; 4352*roundup(15,2)=69632 > 65536 (the hardware's sub-partition check).
        {"6.0 sub-partition register check", "6.0", 480, 136, 0, -1, 0, "registers", 4, 32, 0, -1, 0},
        {"6.0 too many registers per thread", "6.0", 32, 256, 0, -1, 0, "registers", 64, 32, 0, -1, 0},

        // CC 6.1: as 6.0 but 4 sub-partitions (the occupancy header's Pascal rule: 2 only on 6.0), 96 KiB
        // shared memory and 128 FP32 lanes.
        //
        // w=8: warps 8; ru=1024: 16384/1024=16, *4=64, /8=8. -> 8 by warps and registers.
        {"6.1 warp-limited", "6.1", 256, 32, 0, -1, 8, "warps,registers", 8, 32, 8, -1, 64},
        // w=1: ru=2048: 16384/2048=8, *4=32, /1=32. -> 32 by blocks and registers.
        {"6.1 block-limited", "6.1", 32, 64, 0, -1, 32, "blocks,registers", 64, 32, 32, -1, 32},
        // w=4: warps 16; ru=4096: 16384/4096=4, *4=16, /4=4. -> 4 by registers, 16 warps.
        {"6.1 register-limited", "6.1", 128, 128, 0, -1, 4, "registers", 16, 32, 4, -1, 16},
        // w=8: ru=512: 32*4/8=16; smem roundup(30000,256)=30208: 98304/30208=3. -> 3 by shared memory.
        {"6.1 smem-limited", "6.1", 256, 16, 30000, -1, 3, "shared_memory", 8, 32, 16, 3, 24},
        {"6.1 smem above the block maximum", "6.1", 64, 16, 49153, -1, 0, "shared_memory", 32, 32, 64, 0, 0},

        // CC 6.2: as 6.1 but 64 KiB shared memory per SM.
        //
        // w=8: warps 8; registers 8. -> 8 by warps and registers.
        {"6.2 warp-limited", "6.2", 256, 32, 0, -1, 8, "warps,registers", 8, 32, 8, -1, 64},
        // w=1: ru=512: 32*4/1=128. -> 32 by blocks.
        {"6.2 block-limited", "6.2", 32, 16, 0, -1, 32, "blocks", 64, 32, 128, -1, 32},
        // w=6: warps 10; ru=2560: 16384/2560=6, *4=24, /6=4. -> 4 by registers, 24 warps.
        {"6.2 register-limited", "6.2", 192, 80, 0, -1, 4, "registers", 10, 32, 4, -1, 24},
        // w=4: smem roundup(12000,256)=12032: 65536/12032=5. -> 5 by shared memory, 20 warps.
        {"6.2 smem-limited", "6.2", 128, 32, 12000, -1, 5, "shared_memory", 16, 32, 16, 5, 20},
        // w=4: ru=roundup(255*32,256)=8192: 16384/8192=2, *4=8, /4=2. -> 2 by registers at the limit...
        {"6.2 registers at the per-thread limit", "6.2", 128, 255, 0, -1, 2, "registers", 16, 32, 2, -1, 8},
        // ...and none above it.
        {"6.2 too many registers per thread", "6.2", 128, 256, 0, -1, 0, "registers", 16, 32, 0, -1, 0},

        // CC 7.0: 64 warps, 32 blocks, 65536 registers / 4, unit 256; 96 KiB (carveouts 0|8|16|32|64|96).
        //
        // NVIDIA's calculator: w=4: warps 16; ru=1024: 16384/1024=16, *4=64, /4=16. -> 16, 100 %.
        {"7.0 NVIDIA calculator example", "7.0", 128, 32, 0, -1, 16, "warps,registers", 16, 32, 16, -1, 64},
        {"7.0 block-limited", "7.0", 32, 32, 0, -1, 32, "blocks", 64, 32, 64, -1, 32},
        // w=8: warps 8; ru=4096: 16384/4096=4, *4=16, /8=2. -> 2 by registers.
        {"7.0 register-limited", "7.0", 256, 128, 0, -1, 2, "registers", 8, 32, 2, -1, 16},
        // smem 98304/32768=3. -> 3 by smem.
        {"7.0 smem-limited", "7.0", 128, 32, 32768, -1, 3, "shared_memory", 16, 32, 16, 3, 12},
        {"7.0 smem, 32 KiB carveout", "7.0", 128, 32, 32768, 32768, 1, "shared_memory", 16, 32, 16, 1, 4},
        // Carveout 0 and no shared memory: the size is 0, so no limit.
        {"7.0 carveout 0 without smem", "7.0", 128, 32, 0, 0, 16, "warps,registers", 16, 32, 16, -1, 64},
        // Carveout 0 with 256 bytes per block: 0/256=0.
        {"7.0 carveout 0 with smem", "7.0", 128, 32, 256, 0, 0, "shared_memory", 16, 32, 16, 0, 0},
        {"7.0 smem above the block maximum", "7.0", 128, 32, 98305, -1, 0, "shared_memory", 16, 32, 16, 0, 0},

        // CC 7.2: the limits of 7.0 (64 warps, 32 blocks, 65536 registers / 4, unit 256; 96 KiB, carveouts
        // 0|8|16|32|64|96, unit 256, 96 KiB per block).
        //
        // w=8: warps 8; ru=1024: 16384/1024=16, *4=64, /8=8. -> 8 by warps and registers.
        {"7.2 warp-limited", "7.2", 256, 32, 0, -1, 8, "warps,registers", 8, 32, 8, -1, 64},
        // w=1: warps 64; registers 64. -> 32 by blocks.
        {"7.2 block-limited", "7.2", 32, 32, 0, -1, 32, "blocks", 64, 32, 64, -1, 32},
        // w=12: warps 5; ru=2560: 16384/2560=6, *4=24, /12=2. -> 2 by registers, 24 warps.
        {"7.2 register-limited", "7.2", 384, 80, 0, -1, 2, "registers", 5, 32, 2, -1, 24},
        // smem roundup(32768,256)=32768: 98304/32768=3; with the 32 KiB carveout 1.
        {"7.2 smem-limited", "7.2", 128, 32, 32768, -1, 3, "shared_memory", 16, 32, 16, 3, 12},
        {"7.2 smem, 32 KiB carveout", "7.2", 128, 32, 32768, 32768, 1, "shared_memory", 16, 32, 16, 1, 4},
        {"7.2 smem above the block maximum", "7.2", 128, 32, 98305, -1, 0, "shared_memory", 16, 32, 16, 0, 0},

        // CC 7.5: 32 warps, 16 blocks, 65536 registers / 4, unit 256; 64 KiB (carveouts 32|64).
        //
        // w=32: warps 1; ru=512: 128/32=4. -> 1 by warps, 32 warps.
        {"7.5 warp-limited", "7.5", 1024, 16, 0, -1, 1, "warps", 1, 16, 4, -1, 32},
        {"7.5 block-limited", "7.5", 32, 32, 0, -1, 16, "blocks", 32, 16, 64, -1, 16},
        // w=4: warps 8; ru=3072: 16384/3072=5, *4=20, /4=5. -> 5 by registers, 20 warps.
        {"7.5 register-limited", "7.5", 128, 96, 0, -1, 5, "registers", 8, 16, 5, -1, 20},
        // w=2: warps 16; registers 32; smem roundup(20000,256)=20224: 65536/20224=3.
        {"7.5 smem-limited", "7.5", 64, 32, 20000, -1, 3, "shared_memory", 16, 16, 32, 3, 6},
        {"7.5 smem, 32 KiB carveout", "7.5", 64, 32, 20000, 32768, 1, "shared_memory", 16, 16, 32, 1, 2},
        {"7.5 smem above the block maximum", "7.5", 64, 32, 65537, -1, 0, "shared_memory", 16, 16, 32, 0, 0},

        // CC 8.0: 64 warps, 32 blocks, 65536 registers / 4, unit 256; 164 KiB = 167936 B, unit 128, 1024 B
        // reserved per block, 166912 B per block.
        //
        // NVIDIA's calculator: w=8: warps 8; ru=2048: 16384/2048=8, *4=32, /8=4; smem
        // roundup(12288+1024,128)=13312: 167936/13312=12. -> 4 by registers, 32 warps, 50 %.
        {"8.0 NVIDIA calculator example", "8.0", 256, 64, 12288, -1, 4, "registers", 8, 32, 4, 12, 32},
        // w=16: warps 4; registers 128/16=8; smem (0+1024)=1024: 167936/1024=164. -> 4 by warps.
        {"8.0 warp-limited", "8.0", 512, 16, 0, -1, 4, "warps", 4, 32, 8, 164, 64},
        {"8.0 block-limited", "8.0", 32, 16, 0, -1, 32, "blocks", 64, 32, 128, 164, 32},
        // smem roundup(49152+1024,128)=50176: 167936/50176=3.
        {"8.0 smem-limited", "8.0", 128, 32, 49152, -1, 3, "shared_memory", 16, 32, 16, 3, 12},
        // At the per-block maximum: 166912+1024=167936, exactly one block.
        {"8.0 smem at the block maximum", "8.0", 128, 32, 166912, -1, 1, "shared_memory", 16, 32, 16, 1, 4},
        {"8.0 smem above the block maximum", "8.0", 128, 32, 166913, -1, 0, "shared_memory", 16, 32, 16, 0, 0},
        // The reserved 1024 B count even without shared memory: carveout 0 gives 0/1024=0 (MODEL.md 2.1).
        {"8.0 carveout 0 with the reserved smem", "8.0", 128, 32, 0, 0, 0, "shared_memory", 16, 32, 16, 0, 0},
        // w=32: ru=8192; 8192*32 > 65536.
        {"8.0 register file too small", "8.0", 1024, 255, 0, -1, 0, "registers", 2, 32, 0, 164, 0},
        // w=2: warps 32, blocks 32; smem roundup(100+1024,128)=1152: 167936/1152=145.
        {"8.0 warps and blocks tie", "8.0", 64, 16, 100, -1, 32, "warps,blocks", 32, 32, 64, 145, 64},

        // CC 8.6: 48 warps, 16 blocks, 65536 registers / 4, unit 256; 100 KiB = 102400 B, unit 128, 1024 B
        // reserved, 101376 B per block.
        //
        // w=24: warps 2; ru=512: 128/24=5; smem 102400/1024=100. -> 2 by warps, 48 warps.
        {"8.6 warp-limited", "8.6", 768, 16, 0, -1, 2, "warps", 2, 16, 5, 100, 48},
        // w=2: warps 24; ru=1024: 64/2=32. -> 16 by blocks, 32 warps.
        {"8.6 block-limited", "8.6", 64, 32, 0, -1, 16, "blocks", 24, 16, 32, 100, 32},
        // w=8: warps 6; ru=2048: 32/8=4. -> 4 by registers, 32 warps.
        {"8.6 register-limited", "8.6", 256, 64, 0, -1, 4, "registers", 6, 16, 4, 100, 32},
        // smem roundup(32768+1024,128)=33792: 102400/33792=3.
        {"8.6 smem-limited", "8.6", 128, 32, 32768, -1, 3, "shared_memory", 12, 16, 16, 3, 12},
        {"8.6 smem above the block maximum", "8.6", 128, 32, 101377, -1, 0, "shared_memory", 12, 16, 16, 0, 0},
        {"8.6 too many registers per thread", "8.6", 128, 256, 0, -1, 0, "registers", 12, 16, 0, 100, 0},

        // CC 8.7: 48 warps and 16 blocks as 8.6, the shared memory of 8.0 (164 KiB = 167936 B, carveouts up to
        // 164 KiB, unit 128, 1024 B reserved per block, 166912 B per block).
        //
        // w=8: warps 48/8=6; ru=1024: 16*4/8=8; smem roundup(0+1024,128)=1024: 167936/1024=164. -> 6 by warps,
        // 48 warps (100 %).
        {"8.7 warp-limited", "8.7", 256, 32, 0, -1, 6, "warps", 6, 16, 8, 164, 48},
        // w=1: warps 48; registers 64. -> 16 by blocks.
        {"8.7 block-limited", "8.7", 32, 32, 0, -1, 16, "blocks", 48, 16, 64, 164, 16},
        // w=4: warps 12; ru=4096: 16384/4096=4, *4=16, /4=4. -> 4 by registers.
        {"8.7 register-limited", "8.7", 128, 128, 0, -1, 4, "registers", 12, 16, 4, 164, 16},
        // smem roundup(49152+1024,128)=50176: 167936/50176=3 (8.6's 100 KiB gives 2); 64 KiB carveout: 1.
        {"8.7 smem-limited", "8.7", 128, 32, 49152, -1, 3, "shared_memory", 12, 16, 16, 3, 12},
        {"8.7 smem, 64 KiB carveout", "8.7", 128, 32, 49152, 65536, 1, "shared_memory", 12, 16, 16, 1, 4},
        // Carveout 0: the reserved 1024 B alone do not fit.
        {"8.7 carveout 0 with the reserved smem", "8.7", 128, 32, 0, 0, 0, "shared_memory", 12, 16, 16, 0, 0},

        // CC 10.0 and 10.3: 64 warps, 32 blocks, 65536 registers / 4, unit 256; 228 KiB = 233472 B, unit 128,
        // 1024 B reserved, 232448 B per block.
        //
        // w=8: warps 8; ru=1024: 16384/1024=16, *4=64, /8=8; smem (0+1024)=1024: 233472/1024=228. -> 8 by warps
        // and registers. w=1: 32 by blocks. w=4, ru=4096: 4*4/4=4 by registers. smem roundup(100000+1024,128)
        // =101120: 233472/101120=2. 232449 B is above the block maximum.
        {"10.0 warp-limited", "10.0", 256, 32, 0, -1, 8, "warps,registers", 8, 32, 8, 228, 64},
        {"10.0 block-limited", "10.0", 32, 32, 0, -1, 32, "blocks", 64, 32, 64, 228, 32},
        {"10.0 register-limited", "10.0", 128, 128, 0, -1, 4, "registers", 16, 32, 4, 228, 16},
        {"10.0 smem-limited", "10.0", 256, 32, 100000, -1, 2, "shared_memory", 8, 32, 8, 2, 16},
        {"10.0 smem above the block maximum", "10.0", 128, 32, 232449, -1, 0, "shared_memory", 16, 32, 16, 0, 0},
        {"10.3 warp-limited", "10.3", 256, 32, 0, -1, 8, "warps,registers", 8, 32, 8, 228, 64},
        {"10.3 block-limited", "10.3", 32, 32, 0, -1, 32, "blocks", 64, 32, 64, 228, 32},
        {"10.3 register-limited", "10.3", 128, 128, 0, -1, 4, "registers", 16, 32, 4, 228, 16},
        {"10.3 smem-limited", "10.3", 256, 32, 100000, -1, 2, "shared_memory", 8, 32, 8, 2, 16},
        {"10.3 smem above the block maximum", "10.3", 128, 32, 232449, -1, 0, "shared_memory", 16, 32, 16, 0, 0},

        // CC 12.0 and 12.1: 48 warps, 24 blocks, 100 KiB as 8.9.
        //
        // w=1: warps 48, registers 64 -> 24 by blocks. w=32: 48/32=1 by warps; ru=512: 16384/512=32, *4=128,
        // /32=4. w=4, ru=4096 -> 4 by registers. w=8, smem roundup(50000+1024,128)=51072: 102400/51072=2.
        {"12.0 block-limited", "12.0", 32, 32, 0, -1, 24, "blocks", 48, 24, 64, 100, 24},
        {"12.0 warp-limited", "12.0", 1024, 16, 0, -1, 1, "warps", 1, 24, 4, 100, 32},
        {"12.0 register-limited", "12.0", 128, 128, 0, -1, 4, "registers", 12, 24, 4, 100, 16},
        {"12.0 smem-limited", "12.0", 256, 32, 50000, -1, 2, "shared_memory", 6, 24, 8, 2, 16},
        {"12.0 smem above the block maximum", "12.0", 128, 32, 101377, -1, 0, "shared_memory", 12, 24, 16, 0, 0},
        {"12.1 block-limited", "12.1", 32, 32, 0, -1, 24, "blocks", 48, 24, 64, 100, 24},
        {"12.1 warp-limited", "12.1", 1024, 16, 0, -1, 1, "warps", 1, 24, 4, 100, 32},
        {"12.1 register-limited", "12.1", 128, 128, 0, -1, 4, "registers", 12, 24, 4, 100, 16},
        {"12.1 smem-limited", "12.1", 256, 32, 50000, -1, 2, "shared_memory", 6, 24, 8, 2, 16},
        {"12.1 smem above the block maximum", "12.1", 128, 32, 101377, -1, 0, "shared_memory", 12, 24, 16, 0, 0},

        // CC 8.9: as 8.6 but 24 blocks per SM.
        //
        // w=1: warps 48; registers 64. -> 24 by blocks.
        {"8.9 block-limited", "8.9", 32, 32, 0, -1, 24, "blocks", 48, 24, 64, 100, 24},
        // w=32: warps 48/32=1; registers 128/32=4. -> 1 by warps, 32 of 48 warps.
        {"8.9 warp-limited", "8.9", 1024, 16, 0, -1, 1, "warps", 1, 24, 4, 100, 32},
        // w=4: warps 12; ru=4096: 4*4/4=4. -> 4 by registers.
        {"8.9 register-limited", "8.9", 128, 128, 0, -1, 4, "registers", 12, 24, 4, 100, 16},
        // w=8: warps 6; registers 8; smem roundup(50000+1024,128)=51072: 102400/51072=2.
        {"8.9 smem-limited", "8.9", 256, 32, 50000, -1, 2, "shared_memory", 6, 24, 8, 2, 16},
        {"8.9 smem, 64 KiB carveout", "8.9", 256, 32, 50000, 65536, 1, "shared_memory", 6, 24, 8, 1, 8},
        {"8.9 register file too small", "8.9", 1024, 255, 0, -1, 0, "registers", 1, 24, 0, 100, 0},

        // CC 9.0: 64 warps, 32 blocks, 65536 registers / 4, unit 256; 228 KiB = 233472 B, unit 128, 1024 B
        // reserved, 232448 B per block.
        //
        // w=8: warps 8; registers 128/8=16; smem 233472/1024=228. -> 8 by warps.
        {"9.0 warp-limited", "9.0", 256, 16, 0, -1, 8, "warps", 8, 32, 16, 228, 64},
        {"9.0 block-limited", "9.0", 32, 32, 0, -1, 32, "blocks", 64, 32, 64, 228, 32},
        // w=12: warps 5; ru=2560: 16384/2560=6, *4=24, /12=2. -> 2 by registers, 24 warps.
        {"9.0 register-limited", "9.0", 384, 80, 0, -1, 2, "registers", 5, 32, 2, 228, 24},
        // w=1: ru=6400: 16384/6400=2, *4=8 (not 65536/6400=10: each sub-partition wastes its remainder).
        {"9.0 register sub-partitions", "9.0", 32, 200, 0, -1, 8, "registers", 64, 32, 8, 228, 8},
        // smem roundup(100000+1024,128)=101120: 233472/101120=2.
        {"9.0 smem-limited", "9.0", 128, 32, 100000, -1, 2, "shared_memory", 16, 32, 16, 2, 8},
        {"9.0 smem above the block maximum", "9.0", 128, 32, 232449, -1, 0, "shared_memory", 16, 32, 16, 0, 0},
        {"9.0 too many registers per thread", "9.0", 64, 256, 0, -1, 0, "registers", 32, 32, 0, 228, 0},
    };
    return cases;
}

} // namespace

/// The CUDA rule on configurations worked out by hand (MODEL.md 2.1), every compute capability among them.
class TestOccupancyCudaRule : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cudaRule_data();
    void cudaRule();
    void everyComputeCapabilityIsCovered();
};

void TestOccupancyCudaRule::cudaRule_data()
{
    QTest::addColumn<int>("index");
    const auto &cases = cudaCases();
    for (std::size_t i = 0; i < cases.size(); ++i)
        QTest::newRow(cases[i].name) << int(i);
}

void TestOccupancyCudaRule::cudaRule()
{
    QFETCH(int, index);
    const Case &c = cudaCases()[std::size_t(index)];
    const auto &cc = core::computeCapability(c.cc);
    const auto config = c.config < 0 ? std::nullopt : std::optional<long long>(c.config);
    const auto r = core::activeBlocks(cc, input(c.threads, c.regs, c.smem, config), OccupancyMode::Cuda);
    QCOMPARE(r.blocks, c.blocks);
    QCOMPARE(limiterList(r.limiters), QString::fromLatin1(c.limiters));
    QCOMPARE(r.by.warps, c.byWarps);
    QCOMPARE(r.by.blocks, c.byBlocks);
    QCOMPARE(orNone(r.by.registers), c.byRegisters);
    QCOMPARE(orNone(r.by.shared_memory), c.bySharedMemory);
    QCOMPARE(r.warps_per_block, (c.threads + 31) / 32);
    QCOMPARE(r.warps_per_sm, double(c.warps));
    QCOMPARE(r.occupancy, double(c.warps) / cc.max_warps_sm);
    QCOMPARE(r.smem_config, c.config < 0 ? cc.smem_per_sm_bytes : c.config);
}

void TestOccupancyCudaRule::everyComputeCapabilityIsCovered()
{
    // Every CC of the table has hand-checked cases, and across them every kind of limit and of zero.
    std::map<std::string, int> perCc;
    std::set<std::string> kinds;
    for (const Case &c : cudaCases()) {
        ++perCc[c.cc];
        kinds.insert(c.blocks == 0 ? std::string("zero ") + c.limiters : std::string(c.limiters));
        if (c.blocks == 0 && c.regs > core::computeCapability(c.cc).max_regs_thread)
            kinds.insert("zero: registers per thread");
        if (c.blocks == 0 && c.smem > core::computeCapability(c.cc).max_smem_block_bytes)
            kinds.insert("zero: smem per block");
        if (c.blocks == 0 && c.byRegisters == 0 && c.regs <= core::computeCapability(c.cc).max_regs_thread)
            kinds.insert("zero: register file");
    }
    for (const auto &cc : core::computeCapabilities())
        QVERIFY2(perCc[cc.name] >= 5, cc.name.c_str());
    QCOMPARE(perCc.size(), core::computeCapabilities().size());
    for (const char *kind :
         {"warps", "blocks", "registers", "shared_memory", "zero registers", "zero shared_memory",
          "zero: registers per thread", "zero: smem per block", "zero: register file"}) {
        QVERIFY2(kinds.count(kind), kind);
    }
}

QTEST_APPLESS_MAIN(TestOccupancyCudaRule)
#include "tst_occupancy_cuda_rule.moc"
