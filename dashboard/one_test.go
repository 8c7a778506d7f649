package dashboard

import "testing"

func TestOneKeyHasItsRowAndTheRegistrysSnapshot(t *testing.T) {
	// Given a key called once
	f := serve(t, keys("k", 2))
	f.call(t, "k02", 1)
	// When it is read
	var r Row
	f.getJSON(t, "/api/breakers/k02", &r)
	// Then it has its row and the snapshot, settings and all
	if r.Key != "k02" || r.Total.Calls != 1 || r.Snapshot == nil || r.Snapshot.Settings.Threshold != 3 ||
		r.Snapshot.Settings.OpenTimeout != quiet.OpenTimeout || r.Snapshot.Stats.Total.Successes != 1 {
		t.Fatalf("%+v", r)
	}
	// and a list has no snapshot in its rows
	var l List
	f.getJSON(t, "/api/breakers", &l)
	if l.Rows[0].Snapshot != nil {
		t.Fatal("a list row with a snapshot")
	}
}
