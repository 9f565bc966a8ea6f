# The benchmarks and the profiling program (docs/performance.md), included by
# tests/CMakeLists.txt when KEEL_BUILD_BENCHMARKS is on. Each has a smoke run
# that keeps it compiling and running; CI builds and runs them in its float
# and clang stages (scripts/test.sh).
find_package(benchmark REQUIRED)

# The substep, the frame on an updated sea, the column model, flooding and
# added mass benchmarks: run by hand.
add_executable(keel_bench benchmark_substep.cpp benchmark_updated_sea.cpp benchmark_columns.cpp
  benchmark_flooding.cpp benchmark_added_mass.cpp)
target_link_libraries(keel_bench PRIVATE keel_test_support hwy::hwy benchmark::benchmark)
keel_warnings(keel_bench)
# A smoke run keeps the benchmark compiling and running in CI.
add_test(NAME keel_bench_smoke
  COMMAND keel_bench --benchmark_filter=substep/tris:1000/wavy:1/patch:0/terms:31 --benchmark_min_time=0.01)
add_test(NAME keel_bench_updated_sea_smoke
  COMMAND keel_bench --benchmark_filter=frameOnAnUpdatedSea/tris:12/wavy:5/patch:3 --benchmark_min_time=0.01)
add_test(NAME keel_bench_pressure_smoke
  COMMAND keel_bench --benchmark_filter=pressureModel/wave:1/patch:1/gerstner:1 --benchmark_min_time=0.01)

# The batch wave queries alone (docs/waves.md): run by hand; the smoke run
# keeps it compiling and running.
add_executable(keel_bench_waves benchmark_waves.cpp benchmark_waves_grids.cpp benchmark_waves_ocean.cpp)
target_link_libraries(keel_bench_waves PRIVATE keel_test_support benchmark::benchmark)
keel_warnings(keel_bench_waves)
add_test(NAME keel_bench_waves_smoke
  COMMAND keel_bench_waves --benchmark_min_time=0.01)

# Sampling::Auto's calibration (docs/performance.md, "Choosing the sampling"):
# each surface's query costs, printed as the rows of
# lib/src/water/query_costs.hpp; run by hand, the smoke run keeps it running.
add_executable(keel_bench_query_cost benchmark_query_cost.cpp)
target_link_libraries(keel_bench_query_cost PRIVATE keel_test_support benchmark::benchmark)
keel_warnings(keel_bench_query_cost)
add_test(NAME keel_bench_query_cost_smoke
  COMMAND keel_bench_query_cost --benchmark_min_time=0.01)
set_tests_properties(keel_bench_query_cost_smoke PROPERTIES PASS_REGULAR_EXPRESSION "kHeightGrid\\{")

# Fixed work for callgrind instruction counts (docs/performance.md).
add_executable(keel_profile_substep profile_substep.cpp)
target_link_libraries(keel_profile_substep PRIVATE keel_test_support)
keel_warnings(keel_profile_substep)

add_executable(keel_bench_fleet benchmark_fleet.cpp examples/ocean_alongside.cpp)
target_link_libraries(keel_bench_fleet PRIVATE keel_test_support keel_examples TBB::tbb benchmark::benchmark)
keel_warnings(keel_bench_fleet)
add_test(NAME keel_bench_fleet_smoke
  COMMAND keel_bench_fleet --benchmark_filter=fleet/boats:10/tris:500/threads:0/lod:0 --benchmark_min_time=0.01)

# Rollback's save and restore (docs/determinism.md, "Rollback"): run by
# hand; the smoke run keeps it compiling and running.
add_executable(keel_bench_rollback benchmark_rollback.cpp)
target_link_libraries(keel_bench_rollback PRIVATE keel_test_support benchmark::benchmark)
keel_warnings(keel_bench_rollback)
add_test(NAME keel_bench_rollback_smoke
  COMMAND keel_bench_rollback --benchmark_filter=/boats:1/ --benchmark_min_time=0.01)

# The WakeField's cost (docs/wakes.md, "Cost"): run by hand; the smoke run
# keeps it compiling and running.
add_executable(keel_bench_wake benchmark_wake.cpp)
target_link_libraries(keel_bench_wake PRIVATE keel_test_support benchmark::benchmark)
keel_warnings(keel_bench_wake)
add_test(NAME keel_bench_wake_smoke
  COMMAND keel_bench_wake --benchmark_filter=wakeFrame/size:64/.*/part:1|boatSubstep/sea:0/field:1/hull:0
          --benchmark_min_time=0.01)

# Keel's 12-triangle box against Jolt Physics's Body::ApplyBuoyancyImpulse in
# one process (docs/performance.md, "Small hulls: against Jolt"): built only
# when KEEL_JOLT_ROOT names a Jolt build made outside this repository (its
# build folder, or its install prefix, where find_package finds
# JoltConfig.cmake); run by hand. Nothing of Jolt is part of Keel.
set(KEEL_JOLT_ROOT "" CACHE PATH "A Jolt Physics build outside this repository, for keel_bench_jolt; empty: not built")
if(KEEL_JOLT_ROOT)
  find_package(Jolt REQUIRED CONFIG PATHS ${KEEL_JOLT_ROOT} NO_DEFAULT_PATH)
  add_executable(keel_bench_jolt benchmark_jolt.cpp)
  target_link_libraries(keel_bench_jolt PRIVATE keel_test_support Jolt::Jolt benchmark::benchmark)
  keel_warnings(keel_bench_jolt)
endif()
