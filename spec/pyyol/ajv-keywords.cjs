// ajv-keywords.cjs declares the annotation keywords of spec/pyyol/frames
// to ajv, so its strict mode compiles the schemas: x-rule names the rule a
// mismatch breaks, x-required-rule the rule a missing property breaks.
//   npx ajv-cli@5 compile --spec=draft2020 --strict=true -c ./spec/pyyol/ajv-keywords.cjs \
//     -s 'spec/pyyol/frames/*.json' -r 'spec/pyyol/frames/*.json'
module.exports = function declare(ajv) {
  ajv.addKeyword({keyword: "x-rule", schemaType: "string"});
  ajv.addKeyword({keyword: "x-required-rule", schemaType: "string"});
  return ajv;
};
