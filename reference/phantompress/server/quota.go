package server

import (
	"math"
	"time"
)

// Limits are the daily quotas. DefaultLimits are the seed's numbers and are
// what the served reference uses; tests may lower them with WithLimits.
type Limits struct {
	RunsPerKey     int `json:"runs_per_day_per_key"`
	WritesPerAgent int `json:"writes_per_day_per_agent"`
	WritesAll      int `json:"writes_per_day_all_agents"`
	Registrations  int `json:"register_per_day"`
}

// DefaultLimits are the seed's limits (PP-QUOTA-RUNS, PP-QUOTA-WRITES-AGENT,
// PP-QUOTA-WRITES-ALL, PP-QUOTA-REGISTER).
var DefaultLimits = Limits{RunsPerKey: 30, WritesPerAgent: 1000, WritesAll: 3000, Registrations: 200}

// jst is the zone the daily quotas reset in: UTC+9 (PP-QUOTA-RESET).
var jst = time.FixedZone("JST", 9*60*60)

// jstDay names the quota day holding t.
func jstDay(t time.Time) string { return t.In(jst).Format("2006-01-02") }

// nextReset is the next 00:00 JST after t.
func nextReset(t time.Time) time.Time {
	j := t.In(jst)
	return time.Date(j.Year(), j.Month(), j.Day()+1, 0, 0, 0, 0, jst)
}

// quota counts one JST day's writes, runs and registrations.
type quota struct {
	zone   *time.Location // nil: JST; a test option may shift it
	day    string
	writes map[string]int // per agent ID
	total  int
	runs   map[string]int // per agent ID
	regs   int
}

// roll starts a fresh day when t is past the last reset.
func (q *quota) roll(t time.Time) {
	d := jstDay(t)
	if q.zone != nil {
		d = t.In(q.zone).Format("2006-01-02")
	}
	if d != q.day {
		*q = quota{zone: q.zone, day: d, writes: map[string]int{}, runs: map[string]int{}}
	}
}

// overLimit describes a spent quota for the 429 body.
type overLimit struct {
	Code  string
	Scope string
	Max   int
	Used  int
}

// writeRoom reports the spent write quota that blocks agent, if any
// (PP-QUOTA-WRITES-AGENT, PP-QUOTA-WRITES-ALL).
func (q *quota) writeRoom(agent string, l Limits) *overLimit {
	if q.writes[agent] >= l.WritesPerAgent {
		return &overLimit{Code: "daily_write_limit", Scope: "agent", Max: l.WritesPerAgent, Used: q.writes[agent]}
	}
	if q.total >= l.WritesAll {
		return &overLimit{Code: "daily_write_limit", Scope: "all_agents", Max: l.WritesAll, Used: q.total}
	}
	return nil
}

func (q *quota) chargeWrite(agent string) {
	q.writes[agent]++
	q.total++
}

// retryAfter is the whole number of seconds until the next reset, at least 1.
func retryAfter(now time.Time) int {
	s := int(math.Ceil(nextReset(now).Sub(now).Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}
