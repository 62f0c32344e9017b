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

QString limiterList(const core::LimiterSet &set)
{
    QStringList names;
    for (Limiter l : set.list())
        names << QString::fromLatin1(core::limiterName(l).data());
    return names.join(QLatin1Char(','));
}

int orNone(const std::optional<int> &v)
{
    return v ? *v : -1;
}

OccupancyInput input(int threads, int regs, long long smem, std::optional<long long> config = std::nullopt)
{
    OccupancyInput in;
    in.threads_per_block = threads;
    in.regs_per_thread = regs;
    in.smem_per_block = smem;
    in.smem_config = config;
    return in;
}

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

class TestOccupancy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableComesFromTheCsv();
    void bundledRowsMatchTheDataSet();
    void addedRowsHoldTheSourcedFacts();
    void unknownComputeCapabilityIsRejected();
    void nvidiaCalculatorExamples();
    void cudaRule_data();
    void cudaRule();
    void everyComputeCapabilityIsCovered();
    void paperModeIsEq4AsPrinted();
    void modesAgreeWithoutGranularity();
    void randomInputsKeepTheInvariants();
    void moreRegistersOrSharedMemoryNeverRaiseBlocks();
    void invalidInputsAreRejected_data();
    void invalidInputsAreRejected();
    void sweepsMatchSinglePoints();
    void badSweepRangesAreRejected();
    void namesAreTheJsonContract();
};

void TestOccupancy::tableComesFromTheCsv()
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

void TestOccupancy::bundledRowsMatchTheDataSet()
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

void TestOccupancy::addedRowsHoldTheSourcedFacts()
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

void TestOccupancy::unknownComputeCapabilityIsRejected()
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

void TestOccupancy::nvidiaCalculatorExamples()
{
    // CC 8.0, 256 threads, 64 registers, 12 KiB shared memory: 4 blocks, registers limiting, 50 %.
    auto r = core::activeBlocks(core::computeCapability("8.0"), input(256, 64, 12 * 1024));
    QCOMPARE(r.blocks, 4);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("registers"));
    QCOMPARE(r.warps_per_sm, 32.0);
    QCOMPARE(r.occupancy, 0.5);
    QCOMPARE(r.smem_config, 167936LL);
    // CC 7.0, 128 threads, 32 registers, no shared memory: 16 blocks, 100 %.
    r = core::activeBlocks(core::computeCapability("7.0"), input(128, 32, 0));
    QCOMPARE(r.blocks, 16);
    QCOMPARE(r.occupancy, 1.0);
    QCOMPARE(r.warps_per_block, 4);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("warps,registers"));
    QVERIFY(!r.by.shared_memory.has_value());
}

void TestOccupancy::cudaRule_data()
{
    QTest::addColumn<int>("index");
    const auto &cases = cudaCases();
    for (std::size_t i = 0; i < cases.size(); ++i)
        QTest::newRow(cases[i].name) << int(i);
}

void TestOccupancy::cudaRule()
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

void TestOccupancy::everyComputeCapabilityIsCovered()
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

void TestOccupancy::paperModeIsEq4AsPrinted()
{
    // GTX 480 (CC 2.0), as in the paper: T_r = 100, R_T = 20, S_B = 5000.
    // Eq. 4: Z/S_B = 49152/5000 = 9; R/(R_T*T_r) = 32768/2000 = 16; B_max/(P/Q) = 8 (B_max = 8 per SM times
    // P/Q); T_maxMP/T_r = 1536/100 = 15. -> B_a = 8 by blocks; 800 threads = 25 warps of 32, 800/1536.
    const auto &fermi = core::computeCapability("2.0");
    auto r = core::activeBlocks(fermi, input(100, 20, 5000), OccupancyMode::Paper);
    QCOMPARE(r.mode, OccupancyMode::Paper);
    QCOMPARE(r.blocks, 8);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("blocks"));
    QCOMPARE(r.by.warps, 15);
    QCOMPARE(r.by.registers, std::optional<int>(16));
    QCOMPARE(r.by.shared_memory, std::optional<int>(9));
    QCOMPARE(r.warps_per_sm, 25.0);
    QCOMPARE(r.occupancy, 800.0 / 1536);
    // The CUDA rule on the same block: w=4 warps (12 blocks by warps); ru=roundup(640,64)=640:
    // 16384/640=25, *2=50, /4=12; smem roundup(5000,128)=5120: 49152/5120=9. -> 8 by blocks, 32 warps.
    r = core::activeBlocks(fermi, input(100, 20, 5000), OccupancyMode::Cuda);
    QCOMPARE(r.blocks, 8);
    QCOMPARE(r.warps_per_sm, 32.0);

    // Where granularity matters the modes differ. CC 8.0, 100 threads, 64 registers, 12 KiB:
    // paper 65536/6400 = 10 by registers (13 by smem, 20 by threads); CUDA w=4, ru=2048: 8*4/4 = 8.
    const auto &ampere = core::computeCapability("8.0");
    r = core::activeBlocks(ampere, input(100, 64, 12288), OccupancyMode::Paper);
    QCOMPARE(r.blocks, 10);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("registers"));
    QCOMPARE(r.by.shared_memory, std::optional<int>(13));
    QCOMPARE(r.by.warps, 20);
    QCOMPARE(core::activeBlocks(ampere, input(100, 64, 12288), OccupancyMode::Cuda).blocks, 8);
    // As printed, Eq. 4 has no per-thread register cap: 300 registers still give 65536/(300*32) = 6.
    r = core::activeBlocks(ampere, input(32, 300, 0), OccupancyMode::Paper);
    QCOMPARE(r.blocks, 6);
    QCOMPARE(core::activeBlocks(ampere, input(32, 300, 0), OccupancyMode::Cuda).blocks, 0);
}

void TestOccupancy::modesAgreeWithoutGranularity()
{
    // Granularity does not matter, and the two modes agree on B_a, limiters, warps and occupancy, when:
    // T_r is a multiple of 32 (whole warps); R_T is 0 or a power of two from 8 to the per-thread maximum
    // (R_T*32 is then a multiple of the allocation unit and divides each sub-partition's share); and S_B is a
    // multiple of the allocation unit within the per-block maximum, on a CC that reserves no shared memory
    // per block, or S_B = 0 (the reserved 1 KiB then allows 100+ blocks, never the binding limit).
    int compared = 0;
    for (const auto &cc : core::computeCapabilities()) {
        std::vector<long long> smems{0};
        if (cc.reserved_smem_per_block == 0) {
            for (long long units : {1, 3, 16, 40, 100, 190})
                if (units * cc.smem_alloc_unit <= cc.max_smem_block_bytes)
                    smems.push_back(units * cc.smem_alloc_unit);
            smems.push_back(cc.max_smem_block_bytes);
        }
        for (int threads = 32; threads <= core::kMaxThreadsPerBlock; threads += 32) {
            for (int regs : {0, 8, 16, 32, 64, 128}) {
                if (regs > cc.max_regs_thread)
                    continue;
                for (long long smem : smems) {
                    const auto in = input(threads, regs, smem);
                    const auto cuda = core::activeBlocks(cc, in, OccupancyMode::Cuda);
                    const auto paper = core::activeBlocks(cc, in, OccupancyMode::Paper);
                    const QByteArray where
                            = QByteArray("CC ") + cc.name.c_str() + " T=" + QByteArray::number(threads)
                              + " R=" + QByteArray::number(regs) + " S=" + QByteArray::number(smem);
                    QVERIFY2(cuda.blocks == paper.blocks, where.constData());
                    QVERIFY2(cuda.limiters == paper.limiters, where.constData());
                    QVERIFY2(cuda.warps_per_sm == paper.warps_per_sm, where.constData());
                    QVERIFY2(cuda.occupancy == paper.occupancy, where.constData());
                    QVERIFY2(cuda.by.warps == paper.by.warps && cuda.by.registers == paper.by.registers,
                             where.constData());
                    ++compared;
                }
            }
        }
    }
    QVERIFY(compared > 1000);
}

void TestOccupancy::randomInputsKeepTheInvariants()
{
    std::mt19937_64 rng(20240607);
    for (int trial = 0; trial < 20000; ++trial) {
        const auto table = core::computeCapabilities();
        const auto &cc = table[std::uniform_int_distribution<std::size_t>(0, table.size() - 1)(rng)];
        const auto configs = cc.smemConfigsBytes();
        OccupancyInput in;
        in.threads_per_block = std::uniform_int_distribution<int>(1, core::kMaxThreadsPerBlock)(rng);
        in.regs_per_thread = std::uniform_int_distribution<int>(0, 300)(rng);
        in.smem_per_block = std::uniform_int_distribution<long long>(0, cc.max_smem_block_bytes + 4096)(rng);
        if (trial % 2)
            in.smem_config = configs[std::uniform_int_distribution<std::size_t>(0, configs.size() - 1)(rng)];
        for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
            const auto r = core::activeBlocks(cc, in, mode);
            QVERIFY(r.blocks >= 0 && r.blocks <= cc.max_blocks_sm);
            QVERIFY(r.occupancy >= 0 && r.occupancy <= 1);
            QVERIFY(r.warps_per_sm <= cc.max_warps_sm);
            QVERIFY(!r.limiters.empty());
            for (Limiter l : core::kLimiters) {
                const auto v = r.by.get(l);
                QVERIFY(!v || *v >= r.blocks);
                QCOMPARE(r.limiters.contains(l), v == r.blocks);
            }
            if (r.blocks == 0)
                QCOMPARE(r.occupancy, 0.0);
        }
    }
}

void TestOccupancy::moreRegistersOrSharedMemoryNeverRaiseBlocks()
{
    for (const auto &cc : core::computeCapabilities()) {
        for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
            for (int threads : {1, 32, 96, 128, 256, 480, 512, 1024}) {
                const auto regs = core::sweepOccupancy(cc, input(threads, 1, 1000), mode,
                                                       SweepVariable::RegistersPerThread, {1, 300, 1});
                for (std::size_t i = 1; i < regs.blocks.size(); ++i)
                    QVERIFY(regs.blocks[i] <= regs.blocks[i - 1]);
                const auto smem = core::sweepOccupancy(cc, input(threads, 32, 0), mode,
                                                       SweepVariable::SharedMemoryPerBlock,
                                                       {0, cc.max_smem_block_bytes + 1024, 64});
                for (std::size_t i = 1; i < smem.blocks.size(); ++i)
                    QVERIFY(smem.blocks[i] <= smem.blocks[i - 1]);
            }
        }
    }
}

void TestOccupancy::invalidInputsAreRejected_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("regs");
    QTest::addColumn<qlonglong>("smem");
    QTest::addColumn<qlonglong>("config"); // -1: default
    QTest::addColumn<QString>("message");
    QTest::newRow("0 threads") << 0 << 32 << 0LL << -1LL
                               << "threads per block: must be between 1 and 1024 (got 0)";
    QTest::newRow("2000 threads") << 2000 << 32 << 0LL << -1LL
                                  << "threads per block: must be between 1 and 1024 (got 2000)";
    QTest::newRow("negative threads") << -32 << 32 << 0LL << -1LL << "threads per block";
    QTest::newRow("negative registers")
            << 128 << -1 << 0LL << -1LL << "registers per thread: must be between 0 and 65536 (got -1)";
    QTest::newRow("huge registers") << 128 << 70000 << 0LL << -1LL << "registers per thread";
    QTest::newRow("negative smem") << 128 << 32 << -4LL << -1LL
                                   << "shared memory per block: must be between 0 and";
    QTest::newRow("huge smem") << 128 << 32 << (1LL << 31) << -1LL << "shared memory per block";
    QTest::newRow("unknown carveout")
            << 128 << 32 << 0LL << 1000LL
            << "shared-memory configuration: 1000 bytes is not a configuration of CC 8.0 "
               "(choose one of 0, 8192, 16384, 32768, 65536, 102400, 135168, 167936 bytes)";
    QTest::newRow("negative carveout") << 128 << 32 << 0LL << -8192LL << "shared-memory configuration: -8192";
}

void TestOccupancy::invalidInputsAreRejected()
{
    QFETCH(int, threads);
    QFETCH(int, regs);
    QFETCH(qlonglong, smem);
    QFETCH(qlonglong, config);
    QFETCH(QString, message);
    const auto in
            = input(threads, regs, smem, config == -1 ? std::nullopt : std::optional<long long>(config));
    const auto &cc = core::computeCapability("8.0");
    for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
        try {
            core::activeBlocks(cc, in, mode);
            QFAIL("invalid input must be rejected");
        } catch (const core::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(core::InputError,
                                 core::sweepOccupancy(cc, in, mode, SweepVariable::ThreadsPerBlock));
    }
}

void TestOccupancy::sweepsMatchSinglePoints()
{
    const auto &cc = core::computeCapability("8.6");
    const auto base = input(256, 40, 4096, 65536);
    struct Expect
    {
        SweepVariable variable;
        long long first, last, step;
        std::size_t count;
    };
    for (const Expect &e : {Expect{SweepVariable::ThreadsPerBlock, 32, 1024, 32, 32},
                            Expect{SweepVariable::RegistersPerThread, 1, 255, 1, 255},
                            Expect{SweepVariable::SharedMemoryPerBlock, 0, 101376, 128, 793}}) {
        const auto range = core::defaultSweepRange(cc, e.variable);
        QCOMPARE(range.first, e.first);
        QCOMPARE(range.last, e.last);
        QCOMPARE(range.step, e.step);
        for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
            const auto s = core::sweepOccupancy(cc, base, mode, e.variable);
            QCOMPARE(s.variable, e.variable);
            QCOMPARE(s.x.size(), e.count);
            QCOMPARE(s.blocks.size(), e.count);
            QCOMPARE(s.occupancy.size(), e.count);
            QCOMPARE(s.warps_per_sm.size(), e.count);
            QCOMPARE(s.limiters.size(), e.count);
            for (std::size_t i = 0; i < s.x.size(); ++i) {
                OccupancyInput in = base;
                if (e.variable == SweepVariable::ThreadsPerBlock)
                    in.threads_per_block = int(s.x[i]);
                else if (e.variable == SweepVariable::RegistersPerThread)
                    in.regs_per_thread = int(s.x[i]);
                else
                    in.smem_per_block = s.x[i];
                const auto r = core::activeBlocks(cc, in, mode);
                QCOMPARE(s.blocks[i], r.blocks);
                QCOMPARE(s.occupancy[i], r.occupancy);
                QCOMPARE(s.warps_per_sm[i], r.warps_per_sm);
                QVERIFY(s.limiters[i] == r.limiters);
            }
        }
    }
    // Every block size, 1..1024.
    const auto every = core::sweepOccupancy(cc, base, OccupancyMode::Cuda, SweepVariable::ThreadsPerBlock,
                                            {1, 1024, 1});
    QCOMPARE(every.x.size(), std::size_t(1024));
    QCOMPARE(every.x.front(), 1LL);
    QCOMPARE(every.x.back(), 1024LL);
}

void TestOccupancy::badSweepRangesAreRejected()
{
    const auto &cc = core::computeCapability("7.0");
    const auto base = input(128, 32, 0);
    const auto expect = [&](SweepVariable v, core::SweepRange range, const char *message) {
        try {
            core::sweepOccupancy(cc, base, OccupancyMode::Cuda, v, range);
            QFAIL("a bad range must be rejected");
        } catch (const core::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String(message)), e.what());
        }
    };
    expect(SweepVariable::ThreadsPerBlock, {32, 1024, 0}, "step must be >= 1");
    expect(SweepVariable::ThreadsPerBlock, {64, 32, 1}, "is empty");
    expect(SweepVariable::ThreadsPerBlock, {32, 2048, 32},
           "threads per block: must be between 1 and 1024 (got 2048)");
    expect(SweepVariable::ThreadsPerBlock, {0, 64, 32}, "(got 0)");
    expect(SweepVariable::RegistersPerThread, {-1, 64, 1}, "registers per thread");
    expect(SweepVariable::SharedMemoryPerBlock, {0, 1LL << 30, 1}, "at most 1000000 allowed");
}

void TestOccupancy::namesAreTheJsonContract()
{
    QCOMPARE(core::limiterName(Limiter::Warps), std::string_view("warps"));
    QCOMPARE(core::limiterName(Limiter::Blocks), std::string_view("blocks"));
    QCOMPARE(core::limiterName(Limiter::Registers), std::string_view("registers"));
    QCOMPARE(core::limiterName(Limiter::SharedMemory), std::string_view("shared_memory"));
    QCOMPARE(core::occupancyModeName(OccupancyMode::Cuda), std::string_view("cuda"));
    QCOMPARE(core::occupancyModeName(OccupancyMode::Paper), std::string_view("paper"));
    QCOMPARE(core::occupancyModeFromName("paper"), std::optional<OccupancyMode>(OccupancyMode::Paper));
    QVERIFY(!core::occupancyModeFromName("CUDA"));
}

QTEST_APPLESS_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
