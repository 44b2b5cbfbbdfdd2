package suite

import (
	"context"
	"regexp"

	"github.com/cucumber/godog"
)

// directCall returns a call without reflection for the handler shapes the
// kit's steps use most, nil for any other shape (reflectCall serves it).
// The conversions and the argument count check are the ones reflectCall
// makes, so a handler behaves the same on either path.
func directCall(expr *regexp.Regexp, handler any) stepCall {
	switch h := handler.(type) {
	case func() error:
		return func(ctx context.Context, _ []any) (context.Context, error) { return ctx, h() }
	case func(context.Context) error:
		return func(ctx context.Context, _ []any) (context.Context, error) { return ctx, h(ctx) }
	case func(context.Context) (context.Context, error):
		return func(ctx context.Context, _ []any) (context.Context, error) {
			c, err := h(ctx)
			return mustContext(expr, c, err), err
		}
	case func(string) error:
		return oneString(func(ctx context.Context, s string) error { return h(s) })
	case func(context.Context, string) error:
		return oneString(h)
	case func(int) error:
		return oneInt(func(ctx context.Context, n int) error { return h(n) })
	case func(context.Context, int) error:
		return oneInt(h)
	case func(string, string) error:
		return twoStrings(func(ctx context.Context, a, b string) error { return h(a, b) })
	case func(context.Context, string, string) error:
		return twoStrings(h)
	case func(*godog.DocString) error:
		return oneDocString(func(ctx context.Context, d *godog.DocString) error { return h(d) })
	case func(context.Context, *godog.DocString) error:
		return oneDocString(h)
	case func(*godog.Table) error:
		return oneTable(func(ctx context.Context, t *godog.Table) error { return h(t) })
	case func(context.Context, *godog.Table) error:
		return oneTable(h)
	}
	return nil
}

func oneString(h func(context.Context, string) error) stepCall {
	return func(ctx context.Context, args []any) (context.Context, error) {
		if err := argCount(args, 1); err != nil {
			return ctx, err
		}
		s, err := argString(args, 0)
		if err != nil {
			return ctx, err
		}
		return ctx, h(ctx, s)
	}
}

func twoStrings(h func(context.Context, string, string) error) stepCall {
	return func(ctx context.Context, args []any) (context.Context, error) {
		if err := argCount(args, 2); err != nil {
			return ctx, err
		}
		a, err := argString(args, 0)
		if err != nil {
			return ctx, err
		}
		b, err := argString(args, 1)
		if err != nil {
			return ctx, err
		}
		return ctx, h(ctx, a, b)
	}
}

func oneInt(h func(context.Context, int) error) stepCall {
	return func(ctx context.Context, args []any) (context.Context, error) {
		if err := argCount(args, 1); err != nil {
			return ctx, err
		}
		n, err := argInt(args, 0)
		if err != nil {
			return ctx, err
		}
		return ctx, h(ctx, n)
	}
}

func oneDocString(h func(context.Context, *godog.DocString) error) stepCall {
	return func(ctx context.Context, args []any) (context.Context, error) {
		if err := argCount(args, 1); err != nil {
			return ctx, err
		}
		d, err := argDocString(args, 0)
		if err != nil {
			return ctx, err
		}
		return ctx, h(ctx, d)
	}
}

func oneTable(h func(context.Context, *godog.Table) error) stepCall {
	return func(ctx context.Context, args []any) (context.Context, error) {
		if err := argCount(args, 1); err != nil {
			return ctx, err
		}
		t, err := argTable(args, 0)
		if err != nil {
			return ctx, err
		}
		return ctx, h(ctx, t)
	}
}
