package suite

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"
)

// stepCall runs one registered handler with a step's arguments: the
// pattern's capture groups (strings) and, last, the step's DocString or
// DataTable (*messages.PickleStepArgument) when it has one. It returns the
// context the next step gets.
type stepCall func(ctx context.Context, args []any) (context.Context, error)

// Errors of argument conversion, worded as godog words them.
var (
	errStepArgCount = errors.New("func expected more arguments than given")
	errCannotConv   = errors.New("cannot convert argument")
)

var (
	contextType   = reflect.TypeOf((*context.Context)(nil)).Elem()
	errorType     = reflect.TypeOf((*error)(nil)).Elem()
	docStringType = reflect.TypeOf((*godog.DocString)(nil))
	tableType     = reflect.TypeOf((*godog.Table)(nil))
	bytesType     = reflect.TypeOf([]byte(nil))
)

// newStepCall checks handler's shape once, at registration, and returns
// the call that converts a step's arguments for it. It panics on a shape
// godog would refuse at registration or fail on at run time.
func newStepCall(expr *regexp.Regexp, handler any) stepCall {
	typ := reflect.TypeOf(handler)
	if typ == nil || typ.Kind() != reflect.Func {
		panic(fmt.Sprintf("suite: step %q: expected handler to be func, but got: %T", expr, handler))
	}
	checkReturns(expr, typ)
	convs, ctxIn := paramConvs(expr, typ)
	if call := directCall(expr, handler); call != nil {
		return call
	}
	return reflectCall(expr, reflect.ValueOf(handler), convs, ctxIn)
}

// checkReturns accepts the return forms godog accepts, but godog.Steps
// (nested steps, which the kit does not use).
func checkReturns(expr *regexp.Regexp, typ reflect.Type) {
	ok := false
	switch typ.NumOut() {
	case 0:
		ok = true
	case 1:
		ok = typ.Out(0) == errorType || typ.Out(0) == contextType
	case 2:
		ok = typ.Out(0) == contextType && typ.Out(1) == errorType
	}
	if !ok {
		panic(fmt.Sprintf("suite: step %q: expected handler to return nothing, error, context.Context or (context.Context, error), but got %v", expr, typ))
	}
}

// argConv converts the step argument at index i for one parameter.
type argConv func(args []any, i int) (reflect.Value, error)

// paramConvs returns one conversion per parameter after an optional
// leading context.Context, and whether that context is there. A parameter
// type godog cannot fill is a panic here, not an error at run time.
func paramConvs(expr *regexp.Regexp, typ reflect.Type) ([]argConv, bool) {
	ctxIn := typ.NumIn() > 0 && typ.In(0) == contextType
	first := 0
	if ctxIn {
		first = 1
	}
	var convs []argConv
	for i := first; i < typ.NumIn(); i++ {
		c := convFor(typ.In(i))
		if c == nil {
			panic(fmt.Sprintf("suite: step %q: handler parameter %d has unsupported type %v", expr, i, typ.In(i)))
		}
		convs = append(convs, c)
	}
	return convs, ctxIn
}

// convFor returns the conversion for parameter type p, nil when none.
func convFor(p reflect.Type) argConv {
	switch p {
	case reflect.TypeOf(""):
		return func(a []any, i int) (reflect.Value, error) { s, err := argString(a, i); return reflect.ValueOf(s), err }
	case bytesType:
		return func(a []any, i int) (reflect.Value, error) {
			s, err := argString(a, i)
			return reflect.ValueOf([]byte(s)), err
		}
	case docStringType:
		return func(a []any, i int) (reflect.Value, error) {
			d, err := argDocString(a, i)
			return reflect.ValueOf(d), err
		}
	case tableType:
		return func(a []any, i int) (reflect.Value, error) { t, err := argTable(a, i); return reflect.ValueOf(t), err }
	case reflect.TypeOf(float64(0)), reflect.TypeOf(float32(0)):
		return numberConv(p, func(s string) (any, error) { return strconv.ParseFloat(s, p.Bits()) })
	case reflect.TypeOf(0), reflect.TypeOf(int64(0)), reflect.TypeOf(int32(0)), reflect.TypeOf(int16(0)), reflect.TypeOf(int8(0)):
		return numberConv(p, func(s string) (any, error) { return strconv.ParseInt(s, 10, p.Bits()) })
	case reflect.TypeOf(uint(0)), reflect.TypeOf(uint64(0)), reflect.TypeOf(uint32(0)), reflect.TypeOf(uint16(0)), reflect.TypeOf(uint8(0)):
		return numberConv(p, func(s string) (any, error) { return strconv.ParseUint(s, 10, p.Bits()) })
	}
	return nil
}

// numberConv parses the argument with parse and converts it to p.
func numberConv(p reflect.Type, parse func(string) (any, error)) argConv {
	return func(a []any, i int) (reflect.Value, error) {
		s, err := argString(a, i)
		if err != nil {
			return reflect.Value{}, err
		}
		v, err := parse(s)
		if err != nil {
			return reflect.Value{}, fmt.Errorf(`%w %d: "%s" to %v: %s`, errCannotConv, i, s, p, err)
		}
		return reflect.ValueOf(v).Convert(p), nil
	}
}

// reflectCall calls a handler of a shape directCall does not know.
func reflectCall(expr *regexp.Regexp, fn reflect.Value, convs []argConv, ctxIn bool) stepCall {
	return func(ctx context.Context, args []any) (context.Context, error) {
		if err := argCount(args, len(convs)); err != nil {
			return ctx, err
		}
		in := make([]reflect.Value, 0, len(convs)+1)
		if ctxIn {
			in = append(in, reflect.ValueOf(&ctx).Elem())
		}
		for i, c := range convs {
			v, err := c(args, i)
			if err != nil {
				return ctx, err
			}
			in = append(in, v)
		}
		out := fn.Call(in)
		switch len(out) {
		case 0:
			return ctx, nil
		case 1:
			if c, ok := out[0].Interface().(context.Context); ok {
				return orContext(c, ctx), nil
			}
			err, _ := out[0].Interface().(error)
			return ctx, err
		}
		err, _ := out[1].Interface().(error)
		c, _ := out[0].Interface().(context.Context)
		return mustContext(expr, c, err), err
	}
}

// argCount fails, as godog does, when the step gives fewer arguments than
// the handler takes.
func argCount(args []any, n int) error {
	if len(args) < n {
		return fmt.Errorf("%w: expected %d arguments, matched %d from step", errStepArgCount, n, len(args))
	}
	return nil
}

// argString is argument i as a string: a capture group, or the content of
// the step's DocString.
func argString(args []any, i int) (string, error) {
	switch a := args[i].(type) {
	case string:
		return a, nil
	case *messages.PickleStepArgument:
		if a.DocString == nil {
			return "", fmt.Errorf(`%w %d: "%v" of type "%T": DocString is not set`, errCannotConv, i, a, a)
		}
		return a.DocString.Content, nil
	}
	return "", fmt.Errorf(`%w %d: "%v" of type "%T" to string`, errCannotConv, i, args[i], args[i])
}

// argDocString is argument i as the step's DocString (nil when the step
// carries a DataTable instead, as godog passes it).
func argDocString(args []any, i int) (*godog.DocString, error) {
	if a, ok := args[i].(*messages.PickleStepArgument); ok {
		return a.DocString, nil
	}
	return nil, fmt.Errorf(`%w %d: "%v" of type "%T" to *messages.PickleDocString`, errCannotConv, i, args[i], args[i])
}

// argTable is argument i as the step's DataTable (nil when the step
// carries a DocString instead).
func argTable(args []any, i int) (*godog.Table, error) {
	if a, ok := args[i].(*messages.PickleStepArgument); ok {
		return a.DataTable, nil
	}
	return nil, fmt.Errorf(`%w %d: "%v" of type "%T" to *messages.PickleTable`, errCannotConv, i, args[i], args[i])
}

// argInt is argument i as an int.
func argInt(args []any, i int) (int, error) {
	s, err := argString(args, i)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 0)
	if err != nil {
		return 0, fmt.Errorf(`%w %d: "%s" to int: %s`, errCannotConv, i, s, err)
	}
	return int(v), nil
}

// orContext is c, or ctx when the handler returned a nil context.
func orContext(c, ctx context.Context) context.Context {
	if c == nil {
		return ctx
	}
	return c
}

// mustContext is the context a (context.Context, error) handler returned;
// a nil one is a defect of the handler, and panics as it does in godog.
func mustContext(expr *regexp.Regexp, c context.Context, err error) context.Context {
	if c == nil {
		msg := ""
		if err != nil {
			msg = fmt.Sprintf(", step def also returned an error: %v", err)
		}
		panic(fmt.Sprintf("step definition '%v' with return type (context.Context, error) must not return <nil> for the context.Context value%s", expr, msg))
	}
	return c
}
