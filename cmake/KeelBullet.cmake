# Finds Debian's Bullet through pkg-config and defines the imported target
# Keel::Bullet. Debian's BulletConfig.cmake is broken (relative paths, no
# targets), so it is not used. The prefix is KEEL_BT, not BULLET, because
# BULLET_* collides with CMake's FindBullet variables.
if(TARGET Keel::Bullet)
  return()
endif()
find_package(PkgConfig REQUIRED)
if(KEEL_DOUBLE_PRECISION)
  pkg_check_modules(KEEL_BT REQUIRED IMPORTED_TARGET GLOBAL bullet-float64)
else()
  pkg_check_modules(KEEL_BT REQUIRED IMPORTED_TARGET GLOBAL bullet)
endif()
add_library(Keel::Bullet INTERFACE IMPORTED GLOBAL)
target_link_libraries(Keel::Bullet INTERFACE PkgConfig::KEEL_BT)
if(KEEL_DOUBLE_PRECISION)
  # bullet-float64.pc carries the define already on Debian; stating it again
  # keeps consumers right if a .pc file ever drops it.
  target_compile_definitions(Keel::Bullet INTERFACE BT_USE_DOUBLE_PRECISION)
endif()
