# Two entry points for a new user (see README.md):
#   make demo   installs what is missing, builds the prmkit program alone in Release, plans the default problem
#   make check  builds the Release tests and runs the fast unit tier
#   make test   installs what is missing, builds everything (warnings are errors), runs the tests,
#               then builds with ASan+UBSan and runs the same tests again
JOBS ?= $(shell nproc)
DEMO_PROBLEM ?= configs/problems/maze2d.yaml

FUZZ_SECONDS ?= 600

.PHONY: deps deps-test program release asan demo check test test-release test-asan fuzz lin-li clean

deps:
	./scripts/install-deps.sh

deps-test:
	./scripts/install-deps.sh test

release: deps-test
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DPRMKIT_WERROR=ON -DPRMKIT_BUILD_TESTS=ON
	cmake --build build/release -j $(JOBS)

# Line tables only (-g1): the sanitizers' reports keep file and line, and the
# build skips the full debug information of every template it instantiates.
asan: deps-test
	cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
	  -DPRMKIT_WERROR=ON -DPRMKIT_SANITIZE=ON -DPRMKIT_BUILD_TESTS=ON
	cmake --build build/asan -j $(JOBS)

# The program alone: no test suite, benchmarks or test-only packages. The same
# build folder as `make test`, which later adds the rest to it (a folder
# already configured keeps its test setting).
program: deps
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DPRMKIT_WERROR=ON \
	  $(if $(wildcard build/release/CMakeCache.txt),,-DPRMKIT_BUILD_TESTS=OFF)
	cmake --build build/release -j $(JOBS) --target prmkit

demo: program
	./build/release/app/prmkit plan $(DEMO_PROBLEM) --out out/demo

# The fast tier for development (CTest label `unit`, a few minutes on two
# cores); `make test` runs every tier. Labels: docs/tests.md.
check: release
	cd build/release && ctest --output-on-failure -j $(JOBS) -L unit

test-release: release
	cd build/release && ctest --output-on-failure -j $(JOBS)

test-asan: asan
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 PRMKIT_TEST_SCALE=0.25 ctest --output-on-failure -j $(JOBS)

test: test-release test-asan

# Every reader of user files under clang's libFuzzer (ASan+UBSan), FUZZ_SECONDS each.
fuzz: deps
	./scripts/install-deps.sh fuzz
	cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DPRMKIT_FUZZ=ON -DPRMKIT_BUILD_TESTS=OFF -DPRMKIT_WERROR=ON
	cmake --build build/fuzz -j $(JOBS)
	./scripts/run-fuzzers.sh build/fuzz $(FUZZ_SECONDS)

# Lin & Li's Tables 1 and 2 on the generated springs, as CSV, Markdown and a plot
# (Debian's matplotlib, for Debian's /usr/bin/python3).
lin-li: program
	/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || apt-get install -y python3-matplotlib
	./build/release/app/prmkit experiment configs/experiments/lin_li.yaml --out out/lin_li
	/usr/bin/python3 scripts/plot_lin_li.py out/lin_li

clean:
	rm -rf build out
