# `cairn view` (apps/view/, docs/viewer.md): an HTTP server on libmicrohttpd linked into the tool,
# and its page (web/: three.js bundled by esbuild) embedded into the tool at build time.
#
# CAIRN_VIEWER=AUTO (the default) builds the viewer when libmicrohttpd (pkg-config), Node.js and
# either web/node_modules or npm are found; ON requires them; OFF leaves the command saying how to
# get it. web/node_modules comes from `npm ci --prefix web`, which the build runs when it is
# missing or older than web/package-lock.json (that needs the npm registry once; building the
# bundle from node_modules needs no network).
set(CAIRN_VIEWER AUTO CACHE STRING "Build the viewer of `cairn view`: AUTO, ON or OFF")
set_property(CACHE CAIRN_VIEWER PROPERTY STRINGS AUTO ON OFF)

set(CAIRN_VIEW_DIR ${CMAKE_CURRENT_SOURCE_DIR}/apps/view)
set(CAIRN_WEB_DIR ${CMAKE_CURRENT_SOURCE_DIR}/web)
set(CAIRN_VIEW_BUILD_DIR ${CMAKE_CURRENT_BINARY_DIR}/view)
# the command is always there: built without the server it says what to install
target_sources(cairn PRIVATE ${CAIRN_VIEW_DIR}/cmd_view.c)
target_include_directories(cairn PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/apps/cairn ${CAIRN_VIEW_DIR})

set(CAIRN_VIEWER_ENABLED OFF)
if(NOT CAIRN_VIEWER STREQUAL "OFF")
  pkg_check_modules(MICROHTTPD IMPORTED_TARGET libmicrohttpd)
  find_program(CAIRN_NODE NAMES node nodejs)
  find_program(CAIRN_NPM npm)
  set(missing "")
  if(NOT MICROHTTPD_FOUND)
    list(APPEND missing "libmicrohttpd (apt-get install libmicrohttpd-dev)")
  endif()
  if(NOT CAIRN_NODE)
    list(APPEND missing "Node.js (apt-get install nodejs)")
  endif()
  if(NOT EXISTS ${CAIRN_WEB_DIR}/node_modules/esbuild/package.json AND NOT CAIRN_NPM)
    list(APPEND missing "web/node_modules or npm to make it (apt-get install npm)")
  endif()
  if(missing STREQUAL "")
    set(CAIRN_VIEWER_ENABLED ON)
  elseif(CAIRN_VIEWER STREQUAL "ON")
    message(FATAL_ERROR "CAIRN_VIEWER=ON, but the viewer needs: ${missing}")
  else()
    message(STATUS "cairn view: not built; it needs ${missing}")
  endif()
endif()

if(CAIRN_VIEWER_ENABLED)
  find_package(Threads REQUIRED)
  # (the editor's modules are in src/editor/)
  file(GLOB_RECURSE CAIRN_WEB_SOURCES CONFIGURE_DEPENDS ${CAIRN_WEB_DIR}/src/*.js)
  # without npm, node_modules must already be there: the bundle then depends on esbuild's files
  set(stamp ${CAIRN_WEB_DIR}/node_modules/esbuild/package.json)
  if(CAIRN_NPM)
    set(stamp ${CAIRN_WEB_DIR}/node_modules/.package-lock.json)
    # npm writes node_modules/.package-lock.json on every install: the stamp of an up-to-date tree
    add_custom_command(OUTPUT ${stamp}
      COMMAND ${CAIRN_NPM} ci --prefix ${CAIRN_WEB_DIR} --no-audit --no-fund
      DEPENDS ${CAIRN_WEB_DIR}/package.json ${CAIRN_WEB_DIR}/package-lock.json
      COMMENT "npm ci in web/ (the viewer's three.js, esbuild and playwright-core)" VERBATIM)
  endif()
  add_custom_command(OUTPUT ${CAIRN_VIEW_BUILD_DIR}/viewer.js
    COMMAND ${CAIRN_NODE} ${CAIRN_WEB_DIR}/build.mjs ${CAIRN_VIEW_BUILD_DIR}/viewer.js
    DEPENDS ${CAIRN_WEB_DIR}/build.mjs ${CAIRN_WEB_SOURCES} ${stamp}
    COMMENT "esbuild: the viewer's page (web/src) into view/viewer.js" VERBATIM)
  # a build-time tool that turns the page's files into C arrays
  add_executable(cairn_view_embed ${CAIRN_VIEW_DIR}/view_embed.c)
  add_custom_command(OUTPUT ${CAIRN_VIEW_BUILD_DIR}/view_assets.c
    COMMAND cairn_view_embed ${CAIRN_VIEW_BUILD_DIR}/view_assets.c
      /index.html "text/html; charset=utf-8" ${CAIRN_WEB_DIR}/index.html
      /viewer.js "text/javascript; charset=utf-8" ${CAIRN_VIEW_BUILD_DIR}/viewer.js
    DEPENDS cairn_view_embed ${CAIRN_WEB_DIR}/index.html ${CAIRN_VIEW_BUILD_DIR}/viewer.js
    COMMENT "embedding the viewer's page" VERBATIM)
  target_sources(cairn PRIVATE ${CAIRN_VIEW_DIR}/view_server.c ${CAIRN_VIEW_DIR}/view_source.c
    ${CAIRN_VIEW_DIR}/view_compare.c ${CAIRN_VIEW_DIR}/view_history.c ${CAIRN_VIEW_DIR}/view_edit.c
    ${CAIRN_VIEW_DIR}/view_scene_edit.c
    ${CAIRN_VIEW_DIR}/view_text.c ${CAIRN_VIEW_BUILD_DIR}/view_assets.c)
  target_compile_definitions(cairn PRIVATE CAIRN_VIEWER)
  target_link_libraries(cairn PRIVATE PkgConfig::MICROHTTPD Threads::Threads)
endif()
