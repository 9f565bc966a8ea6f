# Installs Keel and exports the CMake package `Keel` with target `Keel::keel`,
# usable by find_package(Keel) from an install and from the build tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(KEEL_DOUBLE_PRECISION)
  set(KEEL_PRECISION_NAME double)
else()
  set(KEEL_PRECISION_NAME single)
endif()
set(KEEL_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Keel)

install(TARGETS keel EXPORT KeelTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/keel DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/lib/include/keel/config.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/keel)

# Keel::Bullet is an imported target of KeelBullet.cmake: the package config
# recreates it, so the exported link interface names it rather than paths.
install(EXPORT KeelTargets NAMESPACE Keel:: DESTINATION ${KEEL_CMAKE_INSTALL_DIR})
export(EXPORT KeelTargets NAMESPACE Keel:: FILE ${PROJECT_BINARY_DIR}/KeelTargets.cmake)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KeelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/KeelConfig.cmake
  INSTALL_DESTINATION ${KEEL_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/KeelConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
# The build tree's config finds KeelBullet.cmake in the source tree.
file(COPY ${PROJECT_SOURCE_DIR}/cmake/KeelBullet.cmake DESTINATION ${PROJECT_BINARY_DIR})
install(FILES ${PROJECT_BINARY_DIR}/KeelConfig.cmake ${PROJECT_BINARY_DIR}/KeelConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/KeelBullet.cmake
  DESTINATION ${KEEL_CMAKE_INSTALL_DIR})
