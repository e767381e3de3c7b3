package cpu

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadLastLevelCache reads a sysfs-like cache folder: the highest
// level's size, in any of the units sysfs uses, and the default where the
// folder says nothing.
func TestReadLastLevelCache(t *testing.T) {
	write := func(dir string, files map[string]string) {
		for name, text := range files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name  string
		files map[string]string
		want  int
	}{
		{"L3 in K", map[string]string{"index0/level": "1\n", "index0/size": "32K\n", "index2/level": "2\n", "index2/size": "1024K\n", "index3/level": "3\n", "index3/size": "32768K\n"}, 32 << 20},
		{"L2 in M", map[string]string{"index0/level": "1\n", "index0/size": "48K\n", "index1/level": "2\n", "index1/size": "2M\n"}, 2 << 20},
		{"unreadable size", map[string]string{"index0/level": "3\n", "index0/size": "big\n"}, defaultLastLevelCache},
		{"empty", map[string]string{}, defaultLastLevelCache},
	}
	var got, want []int
	for _, tc := range cases {
		dir := t.TempDir()
		write(dir, tc.files)
		got, want = append(got, readLastLevelCache(dir)), append(want, tc.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("last-level cache sizes (-want +got):\n%s", diff)
	}
}
