// keel::setJobSystem (keel/jobs.hpp): one job system for the process.
#include <keel/jobs.hpp>

#include <atomic>

namespace keel::KEEL_ABI {
namespace {

std::atomic<JobSystem*> gJobs{nullptr};

}  // namespace

void setJobSystem(JobSystem* jobs) { gJobs.store(jobs, std::memory_order_release); }

JobSystem* jobSystem() { return gJobs.load(std::memory_order_acquire); }

}  // namespace keel::KEEL_ABI
