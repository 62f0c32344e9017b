// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/device_check.h"

#include "core/support/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace crossroof::core {

namespace {

/// A file's peak DRAM bandwidth fits a profile's between these times its R_dram (or R): a sustained peak lies
/// a little under the theoretical one (the H100 SXM's 2964 GB/s measured, 3352 theoretical; an A100's 1897
/// and 2039), and no profile's is above its device's.
constexpr double kBandwidthBelow = 0.95;
constexpr double kBandwidthAbove = 1.35;
/// SM clocks further apart than this share of the profile's are stated.
constexpr double kClockGap = 0.10;

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

/// Letters and digits of TEXT in lower case: "H100-PCIe" and "h100_pcie" both give "h100pcie".
std::string nameKey(std::string_view text)
{
    std::string key;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            key += char(std::tolower(static_cast<unsigned char>(c)));
    }
    return key;
}

std::string upper(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return s;
}

/// A profile's peak DRAM bandwidth: R_dram where it has one, else R.
double peakOf(const HardwareProfile &p)
{
    return p.params.R_dram > 0 ? p.params.R_dram : p.params.R;
}

bool bandwidthFits(double fileGbs, const HardwareProfile &p)
{
    const double peak = peakOf(p);
    return !(peak > 0) || (fileGbs >= kBandwidthBelow * peak && fileGbs <= kBandwidthAbove * peak);
}

/// Whether P fits every fact DEVICE gives: SMs, compute capability, bandwidth.
bool fits(const DeviceFacts &device, const HardwareProfile &p)
{
    if (p.kind != "gpu")
        return false;
    if (device.sm_count && p.params.sm_count != *device.sm_count)
        return false;
    if (!device.cc.empty() && !p.compute_capability.empty() && device.cc != p.compute_capability)
        return false;
    return !device.bandwidth_gbs || bandwidthFits(*device.bandwidth_gbs, p);
}

/// A profile's machine: its name up to the first comma ("GeForce GTX 570 (Fermi)" for both precisions).
std::string_view machineOf(const HardwareProfile &p)
{
    const std::string_view name = p.name;
    return name.substr(0, name.find(','));
}

} // namespace

std::string DeviceFacts::describe() const
{
    std::string text = name;
    const auto add = [&](const std::string &part) { text += (text.empty() ? "" : ", ") + part; };
    if (sm_count)
        add(formatNumber(*sm_count) + " SMs");
    if (!cc.empty())
        add("CC " + cc);
    return text.empty() ? "unknown device" : text;
}

DeviceFacts deviceFacts(const NcuDevice &device)
{
    DeviceFacts facts;
    facts.name = device.name;
    facts.sm_count = device.sm_count;
    facts.cc = device.cc;
    if (device.clock_khz && *device.clock_khz > 0)
        facts.clock_ghz = *device.clock_khz * 1e-6;
    facts.bandwidth_gbs = device.peakDramGbs();
    return facts;
}

DeviceFacts deviceFacts(const NcuReport &report)
{
    DeviceFacts facts = deviceFacts(report.device);
    std::vector<double> clocks;
    for (const NcuKernel &k : report.kernels) {
        if (k.sm_frequency_hz && *k.sm_frequency_hz > 0)
            clocks.push_back(*k.sm_frequency_hz * 1e-9);
    }
    if (!clocks.empty()) {
        const auto middle = clocks.begin() + std::ptrdiff_t(clocks.size() / 2);
        std::nth_element(clocks.begin(), middle, clocks.end());
        facts.clock_ghz = *middle;
    }
    return facts;
}

std::string gpuModel(std::string_view name)
{
    name = name.substr(0, name.find(','));
    static constexpr std::array<std::string_view, 6> kSeries {"nvidia", "geforce", "tesla",
                                                              "quadro", "gtx",     "rtx"};
    std::size_t i = 0;
    while (i < name.size()) {
        while (i < name.size() && !std::isalnum(static_cast<unsigned char>(name[i])))
            ++i;
        std::size_t end = i;
        while (end < name.size() && std::isalnum(static_cast<unsigned char>(name[end])))
            ++end;
        const std::string word = nameKey(name.substr(i, end - i));
        const bool digit = std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digit && std::find(kSeries.begin(), kSeries.end(), word) == kSeries.end())
            return word;
        i = end;
    }
    return {};
}

const HardwareProfile *profileNamedBy(std::string_view deviceName,
                                      const std::vector<HardwareProfile> &profiles)
{
    const std::string key = nameKey(deviceName);
    if (key.empty())
        return nullptr;
    for (const HardwareProfile &p : profiles) {
        if (nameKey(p.id) == key)
            return &p;
    }
    return nullptr;
}

std::vector<const HardwareProfile *> matchingProfiles(const DeviceFacts &device,
                                                      const std::vector<HardwareProfile> &profiles)
{
    std::vector<const HardwareProfile *> out;
    if (!device.sm_count)
        return out;
    for (const HardwareProfile &p : profiles) {
        if (fits(device, p))
            out.push_back(&p);
    }
    return out;
}

std::vector<std::string> DeviceCheck::messages() const
{
    std::vector<std::string> out;
    if (mismatch)
        out.push_back(*mismatch);
    if (clock_gap)
        out.push_back(*clock_gap);
    return out;
}

DeviceCheck checkDevice(const DeviceFacts &device, const HardwareProfile &profile,
                        const std::vector<HardwareProfile> &candidates)
{
    DeviceCheck check;
    if (profile.kind != "gpu")
        return check;
    check.named = profileNamedBy(device.name, candidates);
    const XModelParams &p = profile.params;
    std::vector<std::string> differences;
    const std::string fileModel = gpuModel(device.name);
    const std::string profileModel = gpuModel(profile.name);
    if (!fileModel.empty() && !profileModel.empty() && fileModel != profileModel)
        differences.push_back("another GPU (" + upper(fileModel) + ", not " + upper(profileModel) + ")");
    else if (check.named && machineOf(*check.named) != machineOf(profile))
        differences.push_back("named for profile '" + check.named->id + "', not '" + profile.id + "'");
    if (device.sm_count && *device.sm_count != p.sm_count)
        differences.push_back(formatNumber(*device.sm_count) + " SMs, not " + formatNumber(p.sm_count));
    if (!device.cc.empty() && !profile.compute_capability.empty() && device.cc != profile.compute_capability)
        differences.push_back("CC " + device.cc + ", not " + profile.compute_capability);
    if (device.bandwidth_gbs && !bandwidthFits(*device.bandwidth_gbs, profile)) {
        differences.push_back("peak DRAM bandwidth " + fixed(*device.bandwidth_gbs, 0)
                              + " GB/s, the profile's " + fixed(peakOf(profile), 0) + " GB/s");
    }
    if (!differences.empty()) {
        std::string text
                = "file: "
                  + (device.name.empty() ? "unnamed device (" + device.describe() + ")" : device.name)
                  + "; profile: " + profile.name + ": ";
        for (std::size_t i = 0; i < differences.size(); ++i)
            text += (i ? "; " : "") + differences[i];
        check.mismatch = text;
    }
    if (device.clock_ghz && p.clock_ghz > 0 && std::abs(*device.clock_ghz / p.clock_ghz - 1) > kClockGap) {
        const double gap = *device.clock_ghz / p.clock_ghz - 1;
        check.clock_gap = "SM clock: file " + fixed(*device.clock_ghz, 2) + " GHz, profile "
                          + fixed(p.clock_ghz, 2) + " GHz (" + fixed(std::abs(gap) * 100, 0) + " % "
                          + (gap < 0 ? "lower" : "higher") + ")";
    }
    if (!check.mismatch)
        return check;
    if (check.named) {
        check.matches.push_back(check.named);
    } else {
        for (const HardwareProfile &c : candidates) {
            if (!fileModel.empty() && gpuModel(c.name) == fileModel && fits(device, c))
                check.matches.push_back(&c);
        }
        if (check.matches.empty())
            check.matches = matchingProfiles(device, candidates);
    }
    std::erase_if(check.matches, [&profile](const HardwareProfile *c) { return c->id == profile.id; });
    return check;
}

} // namespace crossroof::core
