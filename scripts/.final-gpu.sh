[[ -x .device/satdof ]] || python3 -c "import tarfile; tarfile.open('.device-pack/device.tar.xz').extractall()"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
D=$PWD/.device
export LD_LIBRARY_PATH=$D/lib __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json XDG_CACHE_HOME=/tmp/xc
export SATDOF_BINARY=$D/satdof SATDOF_TEST_OUT=/tmp/to SATDOF_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for t in test_dof_gl test_race test_app_content test_lens_truth_gl test_app test_sat_cuda; do
  timeout 200 $D/tests/$t > $OUT/$t.log 2>&1; echo "test $t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $OUT/$t.log | tr '\n' ' ')"
done
for size in 1920x1080 3840x2160; do for ap in box disc; do for mode in isolated pipelined; do
  flag=""; [[ $mode == isolated ]] && flag="--isolate-stages"
  echo "== layered $ap $size $mode"
  $D/satdof --headless --backend cuda --dof layered --aperture $ap --frames 120 --size $size --save none $flag --no-settings 2>&1 | grep -E "^  (sat|dof|field|frame) "
done; done; done
