// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/core_model_json.h"

#include "core/support/error.h"

namespace crossroof::core {

namespace detail {

CoreModel coreModelFromJson(const json &obj, const JsonReader &r)
{
    r.checkKeys(obj, "core_model",
                {"issue_width", "pipelines", "latency", "vector_lanes", "registers", "memory"},
                "a core_model field");
    CoreModel m;
    m.issue_width = int(r.integer(obj, "issue_width", "core_model.issue_width", 1, kMaxIssueWidth, std::nullopt));
    m.vector_lanes = int(r.integer(obj, "vector_lanes", "core_model.vector_lanes", 1, kMaxVectorLanes, std::nullopt));
    m.registers = int(r.integer(obj, "registers", "core_model.registers", 1, kMaxRegisters, std::nullopt));

    const json &pipes = r.require(obj, "pipelines", "core_model.pipelines");
    r.checkKeys(pipes, "core_model.pipelines", {"fp", "load", "store", "int"}, "a core_model field");
    for (std::size_t k = 0; k < kPipelineKinds; ++k) {
        const std::string key(pipelineKindName(PipelineKind(k)));
        m.pipelines[k] = int(r.integer(pipes, key.c_str(), "core_model.pipelines." + key, 1, kMaxPipelines,
                                       std::nullopt));
    }
    const json &lat = r.require(obj, "latency", "core_model.latency");
    r.checkKeys(lat, "core_model.latency", {"st", "fp", "fma", "xp"}, "a core_model field");
    for (StatementKind kind : kGivenLatencies) {
        const std::string key(statementKindName(kind));
        m.latency[std::size_t(kind)]
                = r.number(lat, key.c_str(), "core_model.latency." + key, 1, kMaxLatency, std::nullopt);
    }

    const json &mem = r.require(obj, "memory", "core_model.memory");
    r.checkKeys(mem, "core_model.memory", {"element_bytes", "line_bytes", "levels"}, "a core_model field");
    m.element_bytes = int(r.integer(mem, "element_bytes", "core_model.memory.element_bytes", 1, 64, std::nullopt));
    m.line_bytes = int(r.integer(mem, "line_bytes", "core_model.memory.line_bytes", 1, 4096, std::nullopt));
    const json &levels = r.require(mem, "levels", "core_model.memory.levels");
    if (!levels.is_array() || levels.empty() || levels.size() > std::size_t(kMaxMemoryLevels))
        r.fail("core_model.memory.levels", "must be an array of 1 to " + std::to_string(kMaxMemoryLevels)
                                                   + " {\"name\", \"latency\", \"capacity_kib\"}, L1 first");
    m.memory.clear();
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::string at = "core_model.memory.levels[" + std::to_string(i) + "]";
        r.checkKeys(levels[i], at, {"name", "latency", "capacity_kib"}, "a core_model field");
        MemoryLevel level;
        level.name = r.string(levels[i], "name", at + ".name", true);
        level.latency = r.number(levels[i], "latency", at + ".latency", 1, kMaxLatency, std::nullopt);
        level.capacity_kib = r.number(levels[i], "capacity_kib", at + ".capacity_kib", 0, 1e9, 0.0);
        m.memory.push_back(std::move(level));
    }
    // validate() names the field from "core_model." on; the reader adds the file.
    r.validate([&m] { validate(m); });
    return m;
}

json coreModelToJson(const CoreModel &m)
{
    json pipes = json::object();
    for (std::size_t k = 0; k < kPipelineKinds; ++k)
        pipes[std::string(pipelineKindName(PipelineKind(k)))] = m.pipelines[k];
    json lat = json::object();
    for (StatementKind kind : kGivenLatencies)
        lat[std::string(statementKindName(kind))] = m.latency[std::size_t(kind)];
    json levels = json::array();
    for (const MemoryLevel &level : m.memory) {
        json l = {{"name", level.name}, {"latency", level.latency}};
        if (level.capacity_kib > 0)
            l["capacity_kib"] = level.capacity_kib;
        levels.push_back(l);
    }
    return {{"issue_width", m.issue_width},
            {"pipelines", pipes},
            {"latency", lat},
            {"vector_lanes", m.vector_lanes},
            {"registers", m.registers},
            {"memory", {{"element_bytes", m.element_bytes}, {"line_bytes", m.line_bytes}, {"levels", levels}}}};
}

} // namespace detail

} // namespace crossroof::core
